import Testing
import Foundation
import BookConfig
import BookTestSupport
import BookRenderKit

/// The printed cover sheet as a print shop checks it: where the spine text's ink sits against the
/// folds (rasterised by poppler), the colours either side of each fold, the boxes (`pdfinfo -box`),
/// transparency and PDF/X keys (qpdf's JSON), ink (Ghostscript), and refusal on preflight errors.
@Suite struct CoverSheetTests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }
    func sample(_ name: String) -> String { Repository.samples.appendingPathComponent("\(name)/book.json").path }
    func profile(_ name: String) throws -> PrintProfile { try PrintProfile.load(named: name, from: Repository.resources.profiles) }

    /// A 6 × 9 in memoir of short text pages whose interior, laid out for `profile`, has exactly
    /// `pages` pages: the page count the printer's spine rule is given.
    func book(interiorPages pages: Int, profile: String, in dir: URL) throws -> URL {
        var count = pages
        for _ in 0..<4 {
            let json: [String: Any] = ["schema": 1, "kind": "memoir", "title": "Salt and Lanterns", "author": "Ada Whitlow",
                                       "theme": "memoir", "format": ["trim": "6x9"],
                                       "pages": (1...max(count, 1)).map { ["type": "text", "text": "Page \($0) of the harbour year."] }]
            let url = dir.appendingPathComponent("book.json")
            try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: url)
            let probe = dir.appendingPathComponent("probe.pdf").path
            let r = try bookrender(["cover", url.path, "-o", probe, "--profile", profile])
            guard r.status == 0, let made = Self.interiorPages(r.stderr) else { throw ToolError("cover failed: \(r.stderr)") }
            if made == pages { return url }
            count += pages - made
        }
        throw ToolError("no book of \(pages) interior pages for \(profile)")
    }

    static func interiorPages(_ stderr: String) -> Int? {
        guard let r = stderr.range(of: #"for (\d+) interior pages"#, options: .regularExpression) else { return nil }
        return Int(stderr[r].split(separator: " ")[1])
    }

    /// The spine text's ink, in inches from the sheet's trim (left, top), found in a 600 dpi
    /// grey raster of the spine and its wrap: every pixel at least half way from the spine's own
    /// grey to the text's, so an edge pixel counts when the glyph covers most of it.
    struct Ink { var left: Double, right: Double, top: Double, bottom: Double }
    func spineInk(_ pdf: URL, back: Double, spine: Double, wrap: Double) throws -> Ink? {
        let box = try #require(try PDFReaders.boxes(pdf).first)
        let trim = try #require(box["TrimBox"]), media = try #require(box["MediaBox"])
        let dpi = 600.0
        let x0 = ((trim.llx - media.llx) / 72 + back - wrap + 0.01) * dpi
        let width = (spine + 2 * wrap - 0.02) * dpi
        let dir = try temporaryDirectory("spine")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("s")
        let r = try run("pdftoppm", ["-r", "600", "-gray", "-singlefile", "-x", "\(Int(x0.rounded()))", "-y", "0",
                                     "-W", "\(Int(width.rounded()))", "-H", "\(Int((media.height / 72 * dpi).rounded()))",
                                     pdf.path, out.path])
        guard r.status == 0 else { throw ToolError("pdftoppm: \(r.stderr)") }
        let pgm = try GreyImage(Data(contentsOf: out.appendingPathExtension("pgm")))
        let ground = Int(pgm.at(0, pgm.height / 2))
        let contrast = pgm.pixels.prefix(pgm.width * pgm.height).map { abs(Int($0) - ground) }.max() ?? 0
        guard contrast > 40 else { return nil }
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in 0..<pgm.height {
            for x in 0..<pgm.width where 2 * abs(Int(pgm.at(x, y)) - ground) > contrast {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        let originX = (trim.llx - media.llx) / 72, originY = (media.ury - trim.ury) / 72
        let x = { (px: Int) in (Double(Int(x0.rounded()) + px)) / dpi - originX }
        let y = { (px: Int) in Double(px) / dpi - originY }
        return Ink(left: x(minX), right: x(maxX + 1), top: y(minY), bottom: y(maxY + 1))
    }

    static let spineCases: [(String, Int)] = ["kdp", "lulu", "ingramspark"].flatMap { p in [80, 120, 400].map { (p, $0) } }

    @Test(arguments: spineCases)
    func spineTextKeepsClearOfBothFoldsAndIsCentredByItsInk(_ printer: String, _ pages: Int) throws {
        let dir = try temporaryDirectory("spine-\(printer)-\(pages)")
        let book = try book(interiorPages: pages, profile: printer, in: dir)
        let pdf = dir.appendingPathComponent("cover.pdf")
        let r = try bookrender(["cover", book.path, "-o", pdf.path, "--profile", printer])
        #expect(r.status == 0, "\(r.stderr)")
        let rule = try #require(try profile(printer).spine)
        let spine = try profile(printer).spineWidth(pages: pages, paper: "white")
        let variance = rule.foldVariance
        let expectsText = rule.carriesText(pages: pages, inches: spine)
        #expect(r.stderr.contains(expectsText ? "with spine text" : "too thin for spine text"), "\(r.stderr)")
        let ink = try spineInk(pdf, back: 6, spine: spine, wrap: variance)
        guard expectsText else {
            #expect(ink == nil, "a spine of \(spine) in carries no text for \(printer)")
            return
        }
        let found = try #require(ink, "no spine text drawn")
        let pixel = 1.0 / 600
        // Clear of each fold by the binder's variance, measured from the folds themselves.
        #expect(found.left - 6 >= variance - pixel, "\(found.left - 6) in from the back fold")
        #expect(6 + spine - found.right >= variance - pixel, "\(6 + spine - found.right) in from the front fold")
        // Centred across the spine and along it, by ink.
        #expect(abs((found.left + found.right) / 2 - (6 + spine / 2)) <= 1.5 * pixel, "off centre across: \(found)")
        #expect(abs((found.top + found.bottom) / 2 - 4.5) <= 1.5 * pixel, "off centre along: \(found)")
        #expect(found.top >= 0.5 && found.bottom <= 8.5, "spine text ends too near the trim: \(found)")
        // A thin spine's text is as large as the clearances allow, not a fixed small size.
        #expect(found.right - found.left >= 0.85 * min(spine - 2 * variance, 0.14), "\(found)")
    }

    static let printers = ["kdp", "lulu", "ingramspark"]

    /// A change of colour exactly at a fold shows as a sliver on the wrong side when the binder
    /// folds within its variance: the spine's colour runs past each fold by that variance. (The
    /// themes' spines continue the back; a book that asks for a spine of its own colour gets this.)
    @Test(arguments: printers)
    func spineColourWrapsAcrossEachFold(_ printer: String) throws {
        let dir = try temporaryDirectory("wrap-\(printer)")
        let pdf = dir.appendingPathComponent("cover.pdf")
        let book = dir.appendingPathComponent("memoir")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("memoir"), to: book)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: book.appendingPathComponent("book.json"))) as? [String: Any])
        json["tokens"] = ["palette": ["spine": "#3E5C7B"]]
        try JSONSerialization.data(withJSONObject: json).write(to: book.appendingPathComponent("book.json"))
        let r = try bookrender(["cover", book.appendingPathComponent("book.json").path, "-o", pdf.path, "--profile", printer, "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let spine = try profile(printer).spineWidth(pages: try #require(Self.interiorPages(r.stderr)), paper: "white") * 72
        let variance = try #require(try profile(printer).spine).foldVariance * 72
        let box = try #require(try PDFReaders.boxes(pdf).first)
        let trim = try #require(box["TrimBox"]), media = try #require(box["MediaBox"])
        let backFold = trim.llx - media.llx + 432, frontFold = backFold + spine, y = (media.height) / 2
        func close(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool { abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2) <= 24 }
        let spineColour = try PDFReaders.rgbPixel(pdf, page: 1, x: backFold + spine / 2, y: y)
        for x in [backFold - variance + 1.5, frontFold + variance - 1.5] {
            let c = try PDFReaders.rgbPixel(pdf, page: 1, x: x, y: y)
            #expect(close(c, spineColour), "at \(x) pt: \(c), spine \(spineColour)")
        }
        // Past the wrap the panels are their own colours again.
        for x in [backFold - variance - 3.5, frontFold + variance + 3.5] {
            let c = try PDFReaders.rgbPixel(pdf, page: 1, x: x, y: y)
            #expect(!close(c, spineColour), "at \(x) pt the spine colour runs on: \(c)")
        }
    }

    @Test func ingramSparkCoverIsCMYKPDFX1aWithItsSpineBoxesAndBarcodeArea() throws {
        let dir = try temporaryDirectory("ingram-cover")
        let pdf = dir.appendingPathComponent("cover.pdf")
        // Forced: the sample's cover picture is a screen-sized one, which preflight names.
        let r = try bookrender(["cover", sample("storybook"), "-o", pdf.path, "--profile", "ingramspark", "--paper", "cream", "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let ingram = try profile("ingramspark")
        let pages = try #require(Self.interiorPages(r.stderr))
        let spine = try ingram.spineWidth(pages: pages, paper: "cream")
        #expect(r.stderr.contains(String(format: "spine %.4f in", spine)), "\(r.stderr)")
        let b = try #require(try PDFReaders.boxes(pdf).first)
        let trim = try #require(b["TrimBox"]), bleed = try #require(b["BleedBox"])
        #expect(abs(trim.width - (2 * 594 + spine * 72)) < 0.01 && abs(trim.height - 792) < 0.01, "\(trim)")
        #expect(abs(bleed.width - trim.width - 18) < 0.01 && abs(bleed.height - trim.height - 18) < 0.01, "\(bleed)")
        #expect(abs(trim.llx - bleed.llx - 9) < 0.01 && abs(trim.lly - bleed.lly - 9) < 0.01)
        let q = try PDFReaders.QPDFJSON(pdf)
        let intents = try #require(q.catalog["/OutputIntents"] as? [Any], "no output intent")
        #expect(!intents.isEmpty)
        #expect(PDFReaders.text(q.info["/GTS_PDFXVersion"]) == "PDF/X-1:2001", "\(q.info)")
        #expect(PDFReaders.text(q.info["/GTS_PDFXConformance"]) == "PDF/X-1a:2001", "\(q.info)")
        let names = q.allValues().compactMap { $0 as? String }
        #expect(!names.contains("/SMask") && !names.contains("/Group"), "transparency left in the PDF/X-1a cover")
        #expect(!names.contains("/DeviceRGB") && names.contains("/DeviceCMYK"))
        let images = try run("pdfimages", ["-list", pdf.path]).stdout
        #expect(!images.split(separator: "\n").dropFirst(2).contains { $0.contains(" rgb ") }, "\(images)")
        let ink = try PDFReaders.inkCoverage(pdf, dpi: 30)
        #expect(try #require(ink.first).maximum <= 241, "total ink \(ink)")
        // The barcode area stays paper white.
        let barcode = try PDFReaders.rgbPixel(pdf, page: 1, x: trim.llx - (try #require(b["MediaBox"])).llx + 594 - 36 - 72,
                                              y: 9 + 792 - 36 - 43)
        #expect(barcode.0 > 245 && barcode.1 > 245 && barcode.2 > 245, "\(barcode)")
    }

    /// KDP and Lulu flatten transparency on their own, unpredictably: the cover has none to flatten.
    @Test(arguments: ["kdp", "lulu"])
    func rgbCoversCarryNoSoftMaskOrTransparencyGroup(_ printer: String) throws {
        let dir = try temporaryDirectory("flat-\(printer)")
        for sample in ["storybook", "memoir"] {
            let pdf = dir.appendingPathComponent("\(sample).pdf")
            let r = try bookrender(["cover", self.sample(sample), "-o", pdf.path, "--profile", printer, "--force"])
            #expect(r.status == 0, "\(r.stderr)")
            let q = try PDFReaders.QPDFJSON(pdf)
            #expect(!q.allValues().contains { $0 as? String == "/SMask" }, "\(sample): a soft mask in the \(printer) cover")
            // cairo marks every page it writes with a transparency group whatever is drawn; that
            // mark is the PDF writer's to drop. Nothing drawn on the sheet may bring one of its own.
            let pages = Set(q.pageObjects.map { "obj:\($0)" })
            let drawn = q.objects.filter { !pages.contains($0.key) }.values
            let groups = drawn.filter { object in
                var found = false
                func walk(_ v: Any) {
                    if let d = v as? [String: Any] { if d["/Group"] != nil || d["/S"] as? String == "/Transparency" { found = true }; d.values.forEach(walk) }
                    else if let a = v as? [Any] { a.forEach(walk) }
                }
                walk(object)
                return found
            }
            #expect(groups.isEmpty, "\(sample): a transparency group drawn on the \(printer) cover")
        }
    }

    /// A book whose cover picture is far too small for the printer, and a full-bleed cover with
    /// no picture at all (a placeholder): preflight of the sheet names them, on page 1.
    func coverBook(photo: (width: Int, height: Int)?, in dir: URL) throws -> URL {
        var cover: [String: Any] = ["title": "Harbour Lights", "accent": "#2F6690"]
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        if let photo {
            try TestImages.flatJPEG(width: photo.width, height: photo.height, components: [40, 110, 160], adobeTransform: nil)
                .write(to: dir.appendingPathComponent("images/cover.jpg"))
            cover["photo"] = "images/cover.jpg"
        } else {
            cover["photo"] = "images/missing.jpg"
        }
        let json: [String: Any] = ["schema": 1, "kind": "storybook", "title": "Harbour Lights", "author": "Ada Whitlow",
                                   "theme": "picture-book", "format": ["trim": "8.5x8.5"], "cover": cover,
                                   "tokens": ["templates": ["cover": ["style": "full-bleed"]]],
                                   "pages": (1...24).map { ["type": "text", "text": "Night \($0) on the harbour."] }]
        let url = dir.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: url)
        return url
    }

    @Test func aCoverWithPreflightErrorsIsRefusedUnlessForced() throws {
        let dir = try temporaryDirectory("cover-refused")
        let book = try coverBook(photo: nil, in: dir)
        let pdf = dir.appendingPathComponent("out/cover.pdf")
        let refused = try bookrender(["cover", book.path, "-o", pdf.path, "--profile", "kdp"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("placeholder") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pdf.path), "a refused cover left a file")
        let forced = try bookrender(["cover", book.path, "-o", pdf.path, "--profile", "kdp", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.contains("preflight error") && forced.stderr.contains("page 1"), "\(forced.stderr)")
        #expect(FileManager.default.fileExists(atPath: pdf.path))
    }

    @Test func aLowResolutionCoverPictureIsNamedOnTheSheetAndItsSeverityDecides() throws {
        let dir = try temporaryDirectory("cover-lowres")
        let book = try coverBook(photo: (300, 300), in: dir)
        let pdf = dir.appendingPathComponent("cover.pdf")
        let r = try bookrender(["cover", book.path, "-o", pdf.path, "--profile", "kdp"])
        let line = try #require(r.stderr.split(separator: "\n").first { $0.contains("lowResolution") || $0.contains("dpi effective") },
                                "no resolution finding: \(r.stderr)")
        #expect(line.contains("page 1") && line.contains("images/cover.jpg"), "\(line)")
        // An error refuses the sheet (exit 1, no file); a warning lets it be written.
        let isError = line.contains("error")
        #expect(r.status == (isError ? 1 : 0), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: pdf.path) == !isError)
        #expect(try bookrender(["cover", book.path, "-o", pdf.path, "--profile", "kdp", "--force"]).status == 0)

        // Preflight of the book names the same finding without writing the sheet.
        struct Report: Decodable { struct Finding: Decodable { var kind: String; var severity: String; var pages: [Int] }; var findings: [Finding] }
        let checked = try bookrender(["preflight", book.path, "--profile", "kdp", "--cover", "--json"])
        let report = try JSONDecoder().decode(Report.self, from: checked.stdoutData)
        #expect(report.findings.contains { $0.kind == "lowResolution" && $0.pages == [1] && ($0.severity == "error") == isError }, "\(checked.stdout)")
        #expect(checked.status == (isError ? 1 : 0))

        let sharp = try temporaryDirectory("cover-sharp")
        let good = try coverBook(photo: (2700, 2700), in: sharp)
        let ok = try bookrender(["cover", good.path, "-o", sharp.appendingPathComponent("cover.pdf").path, "--profile", "kdp"])
        #expect(ok.status == 0 && !ok.stderr.contains("dpi effective"), "\(ok.stderr)")
    }
    /// A cover for an interior the printer will not print (fewer pages than Lulu's 32, a trim it
    /// does not list) is written, with a warning for each; the same sheet's PDF preflight, given
    /// the interior's count and trim, says the same.
    @Test func aCoverForABookThePrinterRefusesSaysWhy() throws {
        let dir = try temporaryDirectory("cover-unprintable")
        let book = try self.book(interiorPages: 24, profile: "lulu", in: dir)
        let pdf = dir.appendingPathComponent("cover.pdf")
        let r = try bookrender(["cover", book.path, "-o", pdf.path, "--profile", "lulu"])
        #expect(r.status == 0 && FileManager.default.fileExists(atPath: pdf.path), "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("24 pages; lulu prints at least 32"), "\(r.stderr)")
        struct Report: Decodable { struct Finding: Decodable { var kind: String; var severity: String }; var findings: [Finding] }
        let checked = try bookrender(["preflight", pdf.path, "--profile", "lulu", "--cover", "--pages", "24", "--trim", "6.3x9.1", "--json"])
        let report = try JSONDecoder().decode(Report.self, from: checked.stdoutData)
        #expect(report.findings.contains { $0.kind == "pageCount" && $0.severity == "warning" }, "\(checked.stdout)")
        #expect(report.findings.contains { $0.kind == "trimSize" && $0.severity == "warning" }, "\(checked.stdout)")
        // A book the printer takes gets neither.
        let fine = try temporaryDirectory("cover-printable")
        let good = try self.book(interiorPages: 40, profile: "lulu", in: fine)
        let ok = try bookrender(["cover", good.path, "-o", fine.appendingPathComponent("cover.pdf").path, "--profile", "lulu"])
        #expect(ok.status == 0 && !ok.stderr.contains("prints at least"), "\(ok.stderr)")
    }

    /// The corpus's compliant cover book: preflight of the book's sheet passes, the cover is
    /// written, and preflight of that PDF as a cover passes; as an interior it would not (one page).
    @Test func theCompliantIngramSparkCoverBookPassesEveryCheck() throws {
        let book = Repository.root.appendingPathComponent("Tests/PrintRuleBooks/ingramspark-cover-compliant/book.json").path
        let expect = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: book).deletingLastPathComponent()
            .appendingPathComponent("expect.json"))) as! [String: Any]
        #expect(expect["command"] as? String == "cover" && (expect["findings"] as? [Any])?.isEmpty == true)
        let checked = try bookrender(["preflight", book, "--profile", "ingramspark", "--cover"])
        #expect(checked.status == 0 && checked.stdout.contains("0 error(s), 0 warning(s)"), "\(checked.stdout)")
        let dir = try temporaryDirectory("compliant-cover")
        let pdf = dir.appendingPathComponent("cover.pdf").path
        let r = try bookrender(["cover", book, "-o", pdf, "--profile", "ingramspark"])
        #expect(r.status == 0 && !r.stderr.contains("preflight error"), "\(r.stderr)")
        let pages = try #require(Self.interiorPages(r.stderr))
        #expect(try bookrender(["preflight", pdf, "--profile", "ingramspark", "--cover", "--pages", "\(pages)"]).status == 0)
        let asInterior = try bookrender(["preflight", pdf, "--profile", "ingramspark"])
        #expect(asInterior.status == 1 && asInterior.stdout.contains("pageCount"), "\(asInterior.stdout)")
    }
}

/// An 8-bit binary PGM as pdftoppm writes it.
struct GreyImage {
    let width: Int, height: Int
    let pixels: [UInt8]
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [Int] = [], i = 2
        while fields.count < 3 {
            while bytes[i] == 0x20 || bytes[i] == 0x0A { i += 1 }
            var v = 0
            while bytes[i] >= 0x30 && bytes[i] <= 0x39 { v = v * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(v)
        }
        guard bytes.starts(with: [0x50, 0x35]), fields[2] == 255 else { throw ToolError("not an 8-bit PGM") }
        width = fields[0]; height = fields[1]
        pixels = Array(bytes[(i + 1)...])
        guard pixels.count >= width * height else { throw ToolError("short PGM") }
    }
    func at(_ x: Int, _ y: Int) -> UInt8 { pixels[y * width + x] }
}
