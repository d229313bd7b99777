import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// Values out of range, hostile pictures and texts, run through the real binary: each is refused by
/// `validate`, `info` and `export` alike with exit 65, the book and the JSON path, before any work;
/// never a crash, a hang or exit 70.
@Suite struct LimitsCLITests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    /// A folder with book.json made of `pages` and `extra` top-level fields, and a good picture.
    func scratch(_ pages: String, extra: String = "") throws -> URL {
        let dir = try temporaryDirectory("limits")
        try TestImages.redJPEG(width: 64, height: 48).write(to: dir.appendingPathComponent("ok.jpg"))
        let json = #"{"schema": 1, "kind": "storybook", "title": "Limits", \#(extra) "pages": \#(pages)}"#
        try Data(json.utf8).write(to: dir.appendingPathComponent("book.json"))
        return dir
    }

    /// Every command that reads a book, with its arguments.
    func commands(_ dir: URL, _ more: [String] = []) -> [[String]] {
        let book = dir.appendingPathComponent("book.json").path
        return [["validate", book] + more, ["info", book] + more,
                ["export", book, "-o", dir.appendingPathComponent("out.pdf").path] + more]
    }

    func expectRefused(_ dir: URL, _ more: [String] = [], mentioning parts: [String]) throws {
        for args in commands(dir, more) {
            let r = try bookrender(args)
            #expect(r.status == 65, "\(args[0]): \(r.status) \(r.stderr)")
            for part in parts { #expect(r.stderr.contains(part), "\(args[0]) does not say \(part): \(r.stderr)") }
            #expect(r.stderr.contains("book.json"), "\(args[0]): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
    }

    static let tokenCases: [(String, String, String)] = [
        (#""typography": {"body": {"size": 0}}"#, "$.tokens.typography.body.size", "4–144 pt"),
        (#""typography": {"body": {"size": 0.001}}"#, "$.tokens.typography.body.size", "4–144 pt"),
        (#""typography": {"body": {"size": 1e308}}"#, "$.tokens.typography.body.size", "4–144 pt"),
        (#""typography": {"body": {"lineHeight": 9223372036854775808}}"#, "$.tokens.typography.body.lineHeight", "0.8–3"),
        (#""typography": {"body": {"indent": 1e308}}"#, "$.tokens.typography.body.indent", "0–10 em"),
        (#""typography": {"title": {"size": 500}}"#, "$.tokens.typography.title.size", "4–144 pt"),
        (#""sizing": {"shadow": {"radius": 1e308}}"#, "$.tokens.sizing.shadow.radius", "0–72 pt"),
        (#""sizing": {"shadow": {"opacity": 2}}"#, "$.tokens.sizing.shadow.opacity", "0–1"),
        (#""palette": {"accent": "zz"}"#, "$.tokens.palette.accent", "#RRGGBB"),
        (#""sizing": {"cornerRadius": " "}"#, "$.tokens.sizing.cornerRadius", "Double"),
    ]

    @Test(arguments: tokenCases)
    func aTokenOutOfRangeIsRefusedWithItsPathAndRange(_ tokens: String, _ path: String, _ range: String) throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#, extra: #""tokens": {\#(tokens)},"#)
        try expectRefused(dir, mentioning: [path, range])
    }

    @Test func aMarginTakingMoreThanAThirdOfThePageIsRefusedNotNarrowed() throws {
        let dir = try scratch(#"[{"type": "text", "text": "Hello."}]"#,
                              extra: #""format": {"trim": "6x9", "margins": {"top": "3.5in"}},"#)
        try expectRefused(dir, mentioning: ["$.format.margins.top", "a third of the page"])
    }

    @Test(arguments: ["\\u0007", "\\u0000", "\\u001b[31m", "\\u007f", "\\u0085"])
    func aControlCharacterInTextIsRefusedWithItsPath(_ control: String) throws {
        let dir = try scratch(#"[{"type": "text", "text": "Bell \#(control) here."}]"#)
        try expectRefused(dir, mentioning: ["$.pages[0].text", "control character"])
    }

    @Test func lineBreaksAndTabsAreText() throws {
        let dir = try scratch(#"[{"type": "text", "text": "One\r\nTwo\tthree\n\nFour."}]"#)
        let r = try bookrender(["validate", dir.appendingPathComponent("book.json").path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func aTextOverTheLimitIsRefusedAndTheLimitCanBeRaised() throws {
        let long = String(repeating: "word ", count: 220_000)
        let dir = try scratch(#"[{"type": "text", "text": "\#(long)"}]"#)
        try expectRefused(dir, mentioning: ["$.pages[0].text", "1,000,000", "--max-text-length"])
        let raised = try bookrender(["validate", dir.appendingPathComponent("book.json").path, "--max-text-length", "2000000"])
        #expect(raised.status == 0, "\(raised.stderr)")
        let book = try bookrender(["validate", dir.appendingPathComponent("book.json").path, "--max-text-length", "2000000",
                                   "--max-book-text-length", "1000"])
        #expect(book.status == 65 && book.stderr.contains("--max-book-text-length"), "\(book.stderr)")
    }

    // MARK: pictures

    /// A small valid PNG whose header claims `width` × `height`.
    static func pngClaiming(width: Int, height: Int) -> Data {
        var bytes = [UInt8](TestImages.tinyPNG())
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        bytes.replaceSubrange(16..<24, with: be32(width) + be32(height))
        let crc = TestImages.crc32(Array(bytes[12..<29]))
        bytes.replaceSubrange(29..<33, with: be32(Int(crc)))
        return Data(bytes)
    }

    /// A valid JPEG whose frame header claims `width` × `height`.
    static func jpegClaiming(width: Int, height: Int) -> Data {
        var bytes = [UInt8](TestImages.flatJPEG(width: 8, height: 8, components: [128, 128, 128], adobeTransform: nil))
        let sof = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255)])
        return Data(bytes)
    }

    /// Pictures whose header is enough to refuse them.
    static let headerCases: [(String, String)] = [
        ("huge.png", "30000 × 30000"),
        ("tall.png", "more than 32767 on a side"),
        ("huge.jpg", "more than 32767 on a side"),
        ("big.jpg", "30000 × 30000"),
    ]

    func picture(_ name: String) throws -> Data {
        switch name {
        case "huge.png": return Self.pngClaiming(width: 30000, height: 30000)
        case "tall.png": return Self.pngClaiming(width: 1, height: 65000)
        case "huge.jpg": return Self.jpegClaiming(width: 65000, height: 65000)
        case "big.jpg": return Self.jpegClaiming(width: 30000, height: 30000)
        // The header says 64 × 64; the data holds 8 rows of 8.
        case "short.png": return Self.pngClaiming(width: 64, height: 64)
        default:
            var bytes = [UInt8](try TestImages.gradientJPEG(width: 256, height: 256))
            for i in (bytes.count / 2)..<(bytes.count / 2 + 300) { bytes[i] ^= 0x55 }
            return Data(bytes)
        }
    }

    @Test(arguments: headerCases)
    func aPictureWhoseHeaderIsOutOfBoundsIsRefusedByEveryCommand(_ name: String, _ reason: String) throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "\#(name)", "text": "Hello."}]"#)
        try picture(name).write(to: dir.appendingPathComponent(name))
        try expectRefused(dir, mentioning: ["$.pages[0].image", name, reason])
    }

    /// Damage only decoding finds: `validate` decodes as an export with PNG pages would, and both
    /// refuse it as a bad book (65), not as a failure of the renderer (70).
    @Test(arguments: ["short.png", "damaged.jpg"])
    func aPictureAnExportCannotDecodeIsRefusedByValidateToo(_ name: String) throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "\#(name)", "text": "Hello."}]"#)
        try picture(name).write(to: dir.appendingPathComponent(name))
        let book = dir.appendingPathComponent("book.json").path
        let validate = try bookrender(["validate", book])
        #expect(validate.status == 65, "\(validate.stderr)")
        #expect(validate.stderr.contains("$.pages[0].image") && validate.stderr.contains(name), "\(validate.stderr)")
        let export = try bookrender(["export", book, "-o", dir.appendingPathComponent("out.pdf").path,
                                     "--png", dir.appendingPathComponent("pages").path])
        #expect(export.status == 65, "\(export.stderr)")
        #expect(export.stderr.contains("$.pages[0]") && export.stderr.contains(name), "\(export.stderr)")
        // A PDF alone takes a JPEG byte for byte: it is decoded all the same, not printed damaged.
        let pdfOnly = try bookrender(["export", book, "-o", dir.appendingPathComponent("out.pdf").path])
        #expect(pdfOnly.status == 65, "\(pdfOnly.stderr)")
        #expect(pdfOnly.stderr.contains("$.pages[0]") && pdfOnly.stderr.contains(name), "\(pdfOnly.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
    }

    @Test func thePixelLimitCanBeLoweredAndRaised() throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        try expectRefused(dir, ["--max-image-pixels", "1000"], mentioning: ["$.pages[0].image", "64 × 48", "--max-image-pixels"])
        try Self.jpegClaiming(width: 12000, height: 12000).write(to: dir.appendingPathComponent("ok.jpg"))
        let refused = try bookrender(["validate", dir.appendingPathComponent("book.json").path])
        #expect(refused.status == 65 && refused.stderr.contains("100 megapixels"), "\(refused.stderr)")
        let header = try bookrender(["info", dir.appendingPathComponent("book.json").path, "--max-image-pixels", "200000000"])
        #expect(header.status == 0, "\(header.stderr)")
    }

    // MARK: the PDF

    /// The sample storybook with 200,000 emoji in its page texts: the same emoji many times on a
    /// page, which cairo lists once per use in the page's resources.
    @Test func aPageWithRepeatedEmojiWritesAPDFQPDFAccepts() throws {
        let dir = try temporaryDirectory("emoji")
        let source = Repository.samples.appendingPathComponent("storybook")
        try FileManager.default.copyItem(at: source.appendingPathComponent("images"), to: dir.appendingPathComponent("images"))
        var book = try JSONSerialization.jsonObject(with: Data(contentsOf: source.appendingPathComponent("book.json"))) as! [String: Any]
        var pages = book["pages"] as! [[String: Any]]
        let emoji = (0..<80).map { Character(Unicode.Scalar(0x1F600 + $0)!) }
        let textPages = pages.indices.filter { pages[$0]["text"] != nil }
        let each = 200_000 / textPages.count + 1
        for i in textPages {
            pages[i]["text"] = (pages[i]["text"] as! String) + " " + String((0..<each).map { emoji[$0 % emoji.count] })
        }
        book["pages"] = pages
        try JSONSerialization.data(withJSONObject: book).write(to: dir.appendingPathComponent("book.json"))
        let pdf = dir.appendingPathComponent("emoji.pdf")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", pdf.path])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        let check = try run("qpdf", ["--check", pdf.path])
        #expect(check.status == 0, "\(check.stderr.prefix(500))")
    }

    /// A chapter title of 94,000 identical emoji, inside the limits: its line is wider than Int32's
    /// range of Pango units (it once trapped and left a temporary file behind); the export ends
    /// well, its PDF whole.
    @Test func aTitleOfNinetyFourThousandEmojiExports() throws {
        let dir = try temporaryDirectory("emoji-title")
        let title = String(repeating: "🐻", count: 94_000)
        let book = #"{"schema": 1, "kind": "storybook", "title": "Bears", "pages": [{"type": "chapter", "title": "\#(title)"}, {"type": "text", "text": "The end."}]}"#
        try Data(book.utf8).write(to: dir.appendingPathComponent("book.json"))
        let pdf = dir.appendingPathComponent("bears.pdf")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", pdf.path])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        let check = try run("qpdf", ["--check", pdf.path])
        #expect(check.status == 0, "\(check.stderr.prefix(500))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("partial") } == [])
    }

    /// The body sizes at the top of the documented range (4–144 pt) set a book whose every page the
    /// PDF holds: a page's glyph runs at that size once left cairo in error and ended the file early.
    @Test(arguments: [143, 144]) func theLargestBodySizesExportEveryPage(size: Int) throws {
        let dir = try temporaryDirectory("body-\(size)")
        let text = sampleProse(paragraphs: 6).replacingOccurrences(of: "\n", with: "\\n")
        let book = #"{"schema": 1, "kind": "memoir", "title": "Large", "language": "en-US", "tokens": {"typography": {"body": {"size": \#(size)}}}, "pages": [{"type": "text", "text": "\#(text)"}, {"type": "text", "text": "עברית גדולה מאוד"}]}"#
        try Data(book.utf8).write(to: dir.appendingPathComponent("book.json"))
        let pdf = dir.appendingPathComponent("large.pdf")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", pdf.path, "--json"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        let result = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let planned = try #require(result?["pageCount"] as? Int, "\(r.stdout.prefix(300))")
        #expect(planned > 20, "a 144 pt body holds a few words a page")
        #expect(Int(try PDFReaders.info(pdf)["Pages"] ?? "") == planned)
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
    }

    /// A page larger than cairo can draw at the resolution asked (a 40 in trim at 1200 dpi is
    /// 48,000 pixels a side) is refused as a bad command line before anything is written, naming
    /// the resolution that fits, instead of failing half-way with the PDF already written.
    @Test func pagePNGsTooLargeToDrawAreRefusedBeforeAnyOutput() throws {
        let dir = try temporaryDirectory("huge-png")
        let book = #"{"schema": 1, "kind": "storybook", "title": "Wide", "format": {"trim": "40x40in"}, "pages": [{"type": "text", "text": "The end."}]}"#
        try Data(book.utf8).write(to: dir.appendingPathComponent("book.json"))
        let pdf = dir.appendingPathComponent("wide.pdf"), pages = dir.appendingPathComponent("pages")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", pdf.path, "--png", pages.path, "--dpi", "1200"])
        #expect(r.status == 64, "\(r.status) \(r.stderr.suffix(400))")
        #expect(r.stderr.contains("48000 × 48000 pixels") && r.stderr.contains("--dpi 819 or lower"), "\(r.stderr.suffix(400))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["book.json"], "nothing written")
    }
}
