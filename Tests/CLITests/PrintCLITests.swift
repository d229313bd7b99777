import Testing
import Foundation
import BookConfig
import BookTestSupport
import BookRenderKit

/// Print production through the command line, checked with the readers a print shop uses:
/// poppler (pdfinfo, pdffonts, pdfimages, pdftotext), qpdf and Ghostscript.
@Suite struct PrintCLITests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }
    func sample(_ name: String) -> String { Repository.samples.appendingPathComponent("\(name)/book.json").path }

    func profile(_ name: String) throws -> PrintProfile {
        try PrintProfile.load(named: name, from: Repository.resources.profiles)
    }

    static let cases: [(String, String)] = ["kdp", "lulu", "ingramspark", "proof", "screen"].flatMap { p in ["storybook", "memoir"].map { (p, $0) } }

    @Test(arguments: cases)
    func everyProfileWritesTheBoxesItNeedsAndReadersAcceptIt(_ profile: String, _ book: String) throws {
        let dir = try temporaryDirectory("print-\(profile)-\(book)")
        let pdf = dir.appendingPathComponent("\(book).pdf").path
        let r = try bookrender(["export", sample(book), "-o", pdf, "--profile", profile, "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let trim = book == "memoir" ? (432.0, 648.0) : (594.0, 792.0)
        let bleed = try self.profile(profile).bleed
        let pages = try PDFReaders.boxes(URL(fileURLWithPath: pdf))
        #expect(pages.count > 10)
        for (i, b) in pages.enumerated() {
            let n = i + 1
            let t = try #require(b["TrimBox"]), bl = try #require(b["BleedBox"]), m = try #require(b["MediaBox"])
            #expect(abs(t.width - trim.0) < 0.01 && abs(t.height - trim.1) < 0.01, "page \(n) TrimBox \(t)")
            #expect(bl.llx >= m.llx - 0.01 && bl.urx <= m.urx + 0.01 && t.llx >= bl.llx - 0.01 && t.urx <= bl.urx + 0.01)
            // The profile's bleed on each edge; the outside edge of an even (left-hand) page is its left.
            let (left, right) = n % 2 == 0 ? (bleed.outer, bleed.inner) : (bleed.inner, bleed.outer)
            #expect(abs(t.llx - bl.llx - left.points) < 0.01 && abs(bl.urx - t.urx - right.points) < 0.01, "page \(n): \(bl) around \(t)")
            #expect(abs(t.lly - bl.lly - bleed.bottom.points) < 0.01 && abs(bl.ury - t.ury - bleed.top.points) < 0.01, "page \(n): \(bl) around \(t)")
        }
        let check = try run("qpdf", ["--check", pdf])
        #expect(check.status == 0, "\(check.stdout)")
        for line in try run("pdffonts", [pdf]).stdout.split(separator: "\n").dropFirst(2) {
            let c = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(c.count >= 5 && c[c.count - 5] == "yes", "not embedded: \(line)")
        }
        let gs = try run("gs", ["-q", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", pdf])
        #expect(gs.status == 0 && gs.stderr.isEmpty && gs.stdout.isEmpty, "Ghostscript: \(gs.stderr)\(gs.stdout)")
        if profile == "ingramspark" {
            // Every object's dictionary (stream data left out: the pages are large CMYK images).
            let text = try run("qpdf", ["--json", "--json-stream-data=none", pdf]).stdout
            #expect(text.contains("/OutputIntents") && text.contains("/GTS_PDFXVersion"))
            #expect(!text.contains("/DeviceRGB") && !text.contains("/CalRGB"), "an RGB colour space is left")
            let images = try run("pdfimages", ["-list", pdf]).stdout.split(separator: "\n").dropFirst(2)
            for line in images { #expect(!line.contains(" rgb "), "RGB image left: \(line)") }
        }
    }

    @Test func preflightFindsLowResolutionTextInTheBleedAndPlaceholders() throws {
        let dir = try temporaryDirectory("preflight")
        // A picture book whose first picture is drawn for the screen (about 100 ppi on the page) and
        // whose second is missing: low resolution and a placeholder.
        let small = dir.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        try run("convert", ["-size", "850x1125", "gradient:#88CCEE-#FFEEAA", small.appendingPathComponent("screen.jpg").path])
        let pages = #"[{"type": "illustration", "image": "screen.jpg", "text": "Pip looked up."}, {"type": "illustration", "scene": "a fox on a hill", "text": "The moon rose."}]"#
        try Data(#"{"schema": 1, "kind": "storybook", "title": "Small", "pages": \#(pages)}"#.utf8).write(to: small.appendingPathComponent("book.json"))
        let story = try bookrender(["preflight", small.appendingPathComponent("book.json").path, "--profile", "kdp", "--json"])
        #expect(story.status == 1)
        let report = try JSONDecoder().decode(PreflightReport.self, from: Data(story.stdout.utf8))
        let checks = Set(report.findings.map(\.kind))
        #expect(checks.isSuperset(of: ["lowResolution", "placeholder"]), "\(checks)")
        #expect(report.findings.contains { $0.kind == "lowResolution" && $0.file == "screen.jpg" && $0.pages == [2] }, "\(report.findings)")

        // A PDF made for the screen has its page numbers 0.33 in from the edge: inside Lulu's 0.5 in.
        let plain = dir.appendingPathComponent("plain.pdf").path
        #expect(try bookrender(["export", sample("memoir"), "-o", plain]).status == 0)
        let pdf = try bookrender(["preflight", plain, "--profile", "lulu"])
        #expect(pdf.status == 1)
        // Its TrimBox is its MediaBox: what is missing is the bleed, and the finding says so.
        #expect(pdf.stdout.contains("outsideSafeArea") && pdf.stdout.contains("bleed: page 1") && pdf.stdout.contains("no bleed"), "\(pdf.stdout)")
        #expect(!pdf.stdout.contains("missingBoxes") && !pdf.stdout.contains("no TrimBox"), "\(pdf.stdout)")

        // Export for print refuses errors and writes nothing; --force writes.
        let out = dir.appendingPathComponent("kdp.pdf").path
        let refused = try bookrender(["export", sample("storybook"), "-o", out, "--profile", "kdp"])
        #expect(refused.status == 1 && refused.stderr.contains("placeholder") && refused.stderr.contains("--force"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // The same book exported for print passes the PDF preflight's box and safe-area checks (for a
        // printer whose page minimum its twenty pages meet).
        #expect(try bookrender(["export", sample("memoir"), "-o", out, "--profile", "ingramspark"]).status == 0)
        let again = try bookrender(["preflight", out, "--profile", "ingramspark"])
        #expect(again.status == 0, "\(again.stdout)")
    }

    @Test func coverSheetIsBackSpineFrontWithBleedAndAClearBarcodeArea() throws {
        let dir = try temporaryDirectory("cover")
        let pdf = dir.appendingPathComponent("cover.pdf").path
        let r = try bookrender(["cover", sample("memoir"), "-o", pdf, "--profile", "kdp", "--paper", "cream",
                                "--png", dir.appendingPathComponent("png").path, "--dpi", "50"])
        #expect(r.status == 0, "\(r.stderr)")
        let kdp = try profile("kdp")
        let pages = try BookDocument.open(URL(fileURLWithPath: sample("memoir")), settings: TestBooks.settings(profile: "kdp"))
            .layout().pages.count
        let spine = try kdp.spineWidth(pages: pages, paper: "cream")
        #expect(r.stderr.contains(String(format: "spine %.4f in for \(pages) interior pages", spine)), "\(r.stderr)")
        let b = try #require(try PDFReaders.boxes(URL(fileURLWithPath: pdf)).first)
        let trim = try #require(b["TrimBox"]), bleed = try #require(b["BleedBox"])
        #expect(abs(trim.width - (2 * 432 + spine * 72)) < 0.01 && abs(trim.height - 648) < 0.01)
        // A cover has bleed all round, as wide as the profile's widest.
        let all = [kdp.bleed.top, kdp.bleed.bottom, kdp.bleed.inner, kdp.bleed.outer].map(\.points).max()!
        #expect(abs(bleed.width - trim.width - 2 * all) < 0.01 && abs(bleed.height - trim.height - 2 * all) < 0.01)
        #expect(try run("qpdf", ["--check", pdf]).status == 0)
        // The barcode area, 2 × 1.2 in at the back's bottom right inside the safety distance, is plain white in the raster.
        let png = dir.appendingPathComponent("png/page-001.png").path
        let inset = max(kdp.safety.points, 18)
        let crop = "\(Int(2 * 50 - 4))x\(Int(1.2 * 50 - 4))+\(Int((432 - inset - 144) * 50 / 72) + 2)+\(Int((648 - inset - 86.4) * 50 / 72) + 2)"
        let mean = try run("convert", [png, "-crop", crop, "-format", "%[fx:minima.r] %[fx:minima.g] %[fx:minima.b]", "info:"]).stdout
        #expect(mean == "1 1 1", "barcode area not clear: \(mean)")
        #expect(!(try run("pdftotext", [pdf, "-"]).stdout.contains("Kitchen Table Years  ·")), "\(pages) pages is too thin for spine text")
    }

    @Test func thickBooksGetSpineText() throws {
        let dir = try temporaryDirectory("thick")
        let words = (0..<24000).map { ["the", "kitchen", "table", "remembered", "summer", "light"][$0 % 6] }
        let paragraphs = stride(from: 0, to: words.count, by: 120).map { words[$0..<min($0 + 120, words.count)].joined(separator: " ") + "." }
        let json: [String: Any] = ["schema": 1, "kind": "memoir", "title": "Thick", "author": "A. Writer", "theme": "memoir",
                                   "format": ["trim": "6x9"], "pages": [["type": "text", "text": paragraphs.joined(separator: "\n\n")]]]
        let book = dir.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: json).write(to: book)
        let pdf = dir.appendingPathComponent("cover.pdf").path
        let r = try bookrender(["cover", book.path, "-o", pdf, "--profile", "kdp", "--paper", "white"])
        #expect(r.status == 0 && r.stderr.contains("with spine text"), "\(r.stderr)")
        let text = try run("pdftotext", ["-raw", pdf, "-"]).stdout
        #expect(text.components(separatedBy: "Thick").count - 1 == 3, "title on back, front and spine: \(text)")
    }

    @Test func proofCarriesMetadataOutlineFromChaptersAndPageLabels() throws {
        let dir = try temporaryDirectory("structure")
        let pdf = dir.appendingPathComponent("proof.pdf").path
        #expect(try bookrender(["export", sample("memoir"), "-o", pdf, "--profile", "proof"]).status == 0)
        let info = try run("pdfinfo", [pdf]).stdout
        for field in ["Title:           The Kitchen Table Years", "Author:          Ruth Hale", "Subject:         A life in three rooms",
                      "Keywords:        memoir", "CreationDate:    Thu Mar 14 18:30:00 2024 UTC"] {
            #expect(info.contains(field), "\(field) missing from\n\(info)")
        }
        struct Outline: Decodable { var title: String; var destpageposfrom1: Int }
        struct Labels: Decodable { var index: Int; var label: [String: LabelValue] }
        enum LabelValue: Decodable { case s(String), i(Int)
            init(from d: Decoder) throws { let c = try d.singleValueContainer(); if let i = try? c.decode(Int.self) { self = .i(i) } else { self = .s(try c.decode(String.self)) } } }
        struct Doc: Decodable { var outlines: [Outline]; var pagelabels: [Labels] }
        let json = try run("qpdf", ["--json", "--json-key=outlines", "--json-key=pagelabels", pdf]).stdoutData
        let doc = try JSONDecoder().decode(Doc.self, from: json)
        #expect(doc.outlines.map(\.title) == ["The House on Linden Street", "Summers at Birch Lake", "What the Kitchen Knew"])
        for outline in doc.outlines {
            let page = try run("pdftotext", ["-f", "\(outline.destpageposfrom1)", "-l", "\(outline.destpageposfrom1)", pdf, "-"]).stdout
            #expect(page.contains(outline.title), "the outline's \"\(outline.title)\" points at page \(outline.destpageposfrom1), which does not hold it")
        }
        #expect(doc.pagelabels.map(\.index) == [0, 1])
        let plain = dir.appendingPathComponent("plain.pdf").path
        // --force: the sample's twenty pages are fewer than KDP's minimum, which this does not test.
        #expect(try bookrender(["export", sample("memoir"), "-o", plain, "--profile", "kdp", "--force"]).status == 0)
        let kdp = try JSONDecoder().decode(Doc.self, from: try run("qpdf", ["--json", "--json-key=outlines", "--json-key=pagelabels", plain]).stdoutData)
        #expect(kdp.outlines.isEmpty && kdp.pagelabels.isEmpty, "KDP wants no bookmarks")
    }
}
