import Testing
import Foundation
import BookLayout
import BookTestSupport
import BookRenderKit

/// The proof's slug line never touches a crop mark or a registration target: by the geometry of
/// the page tree, and on the rendered page (the marks drawn alone leave no ink where the slug's
/// words are).
@Suite struct ProofSlugTests {
    static func proof(_ sample: String, in dir: URL) throws -> (pdf: URL, tree: PageTree) {
        let pdf = dir.appendingPathComponent("\(sample)-proof.pdf")
        let book = Repository.samples.appendingPathComponent("\(sample)/book.json")
        let report = try BookDocument.open(book, settings: TestBooks.settings(profile: "proof"))
            .export(ExportOptions(pdf: pdf, force: true, keepPageTree: true))
        return (pdf, try #require(report.pageTree))
    }

    @Test(arguments: ["storybook", "memoir"])
    func slugInkClearsEveryMarkInThePageTree(sample: String) throws {
        let dir = try temporaryDirectory("slug-\(sample)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tree = try Self.proof(sample, in: dir).tree
        for page in tree.pages {
            let bleed = tree.geometry.bleedRect(page: page.number, trim: tree.trim)
            var marks: [Rect] = []
            var slug: [TextBox] = []
            for item in page.items {
                switch item {
                case .rule(let r) where !bleed.contains(Rect(x: r.from.x, y: r.from.y, width: 0, height: 0), tolerance: 0):
                    let pad = r.width / 2
                    marks.append(Rect(x: min(r.from.x, r.to.x) - pad, y: min(r.from.y, r.to.y) - pad,
                                      width: abs(r.to.x - r.from.x) + 2 * pad, height: abs(r.to.y - r.from.y) + 2 * pad))
                case .registration(let m):
                    // The circle and its cross, whose arms reach 1.5 radii, with the line's width.
                    let reach = 1.5 * m.radius + 0.125
                    marks.append(Rect(x: m.center.x - reach, y: m.center.y - reach, width: 2 * reach, height: 2 * reach))
                case .text(let t) where t.frame.y >= bleed.maxY:
                    slug.append(t)
                default:
                    break
                }
            }
            #expect(marks.count == 12, "page \(page.number): 8 crop marks and 4 registration targets")
            #expect(slug.count == 2, "page \(page.number): the slug, either side of the bottom target")
            #expect(slug.map(\.text).joined(separator: " ").contains("page \(page.number) of \(tree.pages.count)"))
            for text in slug {
                let ink = text.inkBounds
                #expect(ink.width > 0)
                for mark in marks {
                    let clear = ink.maxX <= mark.x || mark.maxX <= ink.x || ink.maxY <= mark.y || mark.maxY <= ink.y
                    #expect(clear, "page \(page.number): slug \(ink) \"\(text.text)\" overlaps the mark at \(mark)")
                }
            }
        }
    }

    @Test func noMarkInkWhereTheSlugWordsAreOnTheRenderedPage() throws {
        let dir = try temporaryDirectory("slug-rendered")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try Self.proof("memoir", in: dir).pdf
        let page = 3
        let bleedBottom = try #require(PDFReaders.boxes(pdf)[page - 1]["BleedBox"]).lly
        let height = try #require(Double(try PDFReaders.info(pdf)["Page size"]?.split(separator: " ")[2] ?? ""))

        // The slug's words as poppler finds them, in points from the top left.
        let html = try run("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"]).stdout
        let pattern = try NSRegularExpression(pattern: #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>"#)
        let words = pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m -> (Rect, String) in
            let v = (1...4).map { Double(html[Range(m.range(at: $0), in: html)!])! }
            return (Rect(x: v[0], y: v[1], width: v[2] - v[0], height: v[3] - v[1]), String(html[Range(m.range(at: 5), in: html)!]))
        }.filter { $0.0.y >= height - bleedBottom }
        #expect(words.map(\.1).contains("proof"), "\(words)")
        #expect(words.count >= 6)

        // The page without its text: the marks (and the page) alone, at 4 pixels a point.
        let scale = 4.0
        let image = dir.appendingPathComponent("marks.ppm")
        let out = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=ppmraw", "-r\(Int(72 * scale))", "-dFILTERTEXT",
                                 "-dFirstPage=\(page)", "-dLastPage=\(page)", "-o", image.path, pdf.path])
        #expect(out.status == 0, "\(out.stderr)")
        let data = [UInt8](try Data(contentsOf: image))
        // P6 header: magic, a comment line from Ghostscript, width height, maximum.
        let lines = data.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
        let size = String(decoding: lines[2], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        let width = size[0], start = data.count - size[0] * size[1] * 3
        for (box, word) in words {
            var inked = 0
            for y in Int((box.y - 0.5) * scale)...Int((box.maxY + 0.5) * scale) {
                for x in Int((box.x - 0.5) * scale)...Int((box.maxX + 0.5) * scale) {
                    let i = start + (y * width + x) * 3
                    if data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250 { inked += 1 }
                }
            }
            #expect(inked == 0, "\"\(word)\" at \(box) lies on \(inked) pixels of mark ink")
        }
    }
}
