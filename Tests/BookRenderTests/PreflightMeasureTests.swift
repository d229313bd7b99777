import Testing
import Foundation
import BookConfig
import BookLayout
import BookRender
import BookRenderKit
import BookTestSupport

/// The book preflight (Pango's ink extents on the page tree) and the PDF preflight (Ghostscript's
/// ink of the text in the finished file) measure the same thing: for every page of a book exported
/// with a print profile, the text's ink comes as close to each trim edge in both.
@Suite struct PreflightMeasureTests {
    static let corpus = Repository.root.appendingPathComponent("Tests/PrintRuleBooks")

    /// Per page, the union of the ink of every line inside the trim, in trim coordinates.
    func bookInk(_ tree: PageTree) -> [Int: Rect] {
        let trim = Rect(x: 0, y: 0, width: tree.trim.width, height: tree.trim.height)
        var out: [Int: Rect] = [:]
        for page in tree.pages {
            for line in page.textBoxes.flatMap(\.inkLines)
            where line.ink.maxX > trim.x && line.ink.x < trim.maxX && line.ink.maxY > trim.y && line.ink.y < trim.maxY {
                out[page.number] = out[page.number].map { $0.union(line.ink) } ?? line.ink
            }
        }
        return out
    }

    func export(_ book: URL, profile: String) throws -> (tree: PageTree, pdf: URL) {
        let pdf = try temporaryDirectory("measure-\(profile)").appendingPathComponent("book.pdf")
        let document = try BookDocument.open(book, settings: TestBooks.settings(profile: profile))
        let report = try document.export(ExportOptions(pdf: pdf, force: true, keepPageTree: true))
        return (try #require(report.pageTree), pdf)
    }

    @Test(arguments: [("samples/memoir/book.json", "lulu"), ("samples/memoir/book.json", "kdp"), ("samples/storybook/book.json", "lulu"),
                      ("Tests/PrintRuleBooks/lulu-text-ink-near-safe-line/book.json", "lulu"),
                      ("Tests/PrintRuleBooks/lulu-text-ink-crosses-safe-line/book.json", "lulu")])
    func bookAndPDFMeasureTheSameInk(_ book: String, _ profile: String) throws {
        let (tree, pdf) = try export(Repository.root.appendingPathComponent(book), profile: profile)
        let fromBook = bookInk(tree)
        let fromPDF = try PDFTextInk.bounds(pdf)
        #expect(fromBook.count > 10)
        // A page flattened for a printer that takes no transparency (colour emoji) carries its text as
        // part of the page's image: no font left on it, nothing for the PDF side to measure.
        let flattened = Set(try fromBook.keys.filter { page in
            try run("pdffonts", ["-f", "\(page)", "-l", "\(page)", pdf.path]).stdout.split(separator: "\n").count <= 2
        })
        #expect(flattened.count <= 1, "pages without fonts: \(flattened.sorted())")
        #expect(Set(fromBook.keys).subtracting(flattened) == Set(fromPDF.keys), "pages with text: book \(fromBook.keys.sorted()), PDF \(fromPDF.keys.sorted())")
        // A hundredth of an inch: the PDF's glyph outlines against the font's glyph extents.
        let tolerance = 0.72
        for (page, a) in fromBook.sorted(by: { $0.key < $1.key }) {
            guard let b = fromPDF[page] else { continue }
            let sides = [(a.x, b.x), (a.y, b.y), (a.maxX, b.maxX), (a.maxY, b.maxY)]
            #expect(sides.allSatisfy { abs($0.0 - $0.1) < tolerance }, "page \(page): book \(a), PDF \(b)")
        }
    }

    /// A first line near Lulu's 0.5 in line: its font box (what `pdftotext -bbox` measures) reaches
    /// points further out than its ink; the PDF preflight measures the ink, and both preflights pass it.
    @Test func thePDFPreflightMeasuresInkNotTheFontBox() throws {
        let book = Self.corpus.appendingPathComponent("lulu-text-ink-near-safe-line/book.json")
        let (_, pdf) = try export(book, profile: "lulu")
        let words = try run("pdftotext", ["-bbox", "-f", "2", "-l", "2", pdf.path, "-"]).stdout
        let tops = words.split(separator: "\n").compactMap { line -> Double? in
            guard let r = line.range(of: #"yMin="([0-9.]+)""#, options: .regularExpression) else { return nil }
            return Double(line[r].dropFirst(6).dropLast())
        }
        // pdftotext measures from the MediaBox's top: 0.125 in of bleed, then 0.5 in.
        let firstTop = try #require(tops.min()) - 9
        let ink = try #require(try PDFTextInk.bounds(pdf)[2])
        #expect(ink.y > 36, "the ink stays inside: \(ink)")
        #expect(ink.y - firstTop > 2, "the font box (top at \(firstTop) pt) should reach further out than the ink (\(ink.y) pt)")

        let document = try BookDocument.open(book, settings: TestBooks.settings())
        #expect(try document.preflight(profile: "lulu").findings.filter { $0.kind == "outsideSafeArea" }.isEmpty)
        #expect(try PDFCheck.preflight(pdf, profile: "lulu", settings: TestBooks.settings()).findings.filter { $0.kind == "outsideSafeArea" }.isEmpty)
    }

    /// Accented capitals on a tight line reach above the margin: both preflights flag the same pages,
    /// at the same distance.
    @Test func inkOverTheSafeLineFailsBothAtTheSameDistance() throws {
        let book = Self.corpus.appendingPathComponent("lulu-text-ink-crosses-safe-line/book.json")
        let (_, pdf) = try export(book, profile: "lulu")
        let document = try BookDocument.open(book, settings: TestBooks.settings())
        let fromBook = try document.preflight(profile: "lulu").findings.filter { $0.kind == "outsideSafeArea" }
        let fromPDF = try PDFCheck.preflight(pdf, profile: "lulu", settings: TestBooks.settings()).findings.filter { $0.kind == "outsideSafeArea" }
        #expect(!fromBook.isEmpty)
        #expect(fromBook.map(\.pages) == fromPDF.map(\.pages))
        func inches(_ d: Diagnostic) -> Double? {
            guard let r = d.message.range(of: #"prints -?[0-9.]+ in"#, options: .regularExpression) else { return nil }
            return Double(d.message[r].dropFirst(7).dropLast(3))
        }
        for (a, b) in zip(fromBook, fromPDF) {
            let x = try #require(inches(a)), y = try #require(inches(b))
            #expect(x < 0.5 && abs(x - y) <= 0.011, "\(a.message) / \(b.message)")
            #expect(a.message.contains("top trim edge") && b.message.contains("top trim edge"))
        }
    }
}
