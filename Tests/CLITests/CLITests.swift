import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// The command line as a user meets it: the built binary, real files, exit codes and messages.
@Suite struct CLITests {
    func bookrender(_ args: [String], in dir: URL? = nil) throws -> ToolResult {
        try run(try Repository.binary.path, args, currentDirectory: dir)
    }

    func sampleBook(_ name: String) -> String { Repository.samples.appendingPathComponent("\(name)/book.json").path }

    /// A copy of a small storybook in a fresh folder, with one real JPEG.
    func scratchBook(pages: String, extraFiles: [String: Data] = [:]) throws -> URL {
        let dir = try temporaryDirectory("cli")
        try run("convert", ["-size", "300x400", "gradient:#88CCEE-#FFEEAA", dir.appendingPathComponent("ok.jpg").path])
        for (name, data) in extraFiles { try data.write(to: dir.appendingPathComponent(name)) }
        let json = #"{"schema": 1, "kind": "storybook", "title": "Scratch", "pages": \#(pages)}"#
        try Data(json.utf8).write(to: dir.appendingPathComponent("book.json"))
        return dir
    }

    func visibleFiles(_ dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    @Test(arguments: ["storybook", "memoir"])
    func samplesExportToPDFAndPNG(_ name: String) throws {
        let out = try temporaryDirectory("sample-\(name)")
        let pdf = out.appendingPathComponent("x.pdf").path
        let r = try bookrender(["export", sampleBook(name), "-o", pdf, "--png", out.appendingPathComponent("d").path, "--dpi", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        let info = try run("pdfinfo", [pdf]).stdout
        let size = name == "memoir" ? "432 x 648 pts" : "594 x 792 pts"
        #expect(info.contains("Page size:       \(size)"))
        let pages = Int(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }!.split(separator: " ").last!)!
        let pngs = try visibleFiles(out.appendingPathComponent("d")).filter { $0.hasPrefix("page-") }
        #expect(pngs.count == pages)
        let dims = try run("identify", ["-format", "%w %h", out.appendingPathComponent("d/page-001.png").path]).stdout
        #expect(dims == (name == "memoir" ? "180 270" : "248 330"), "trim × 30 dpi, rounded")
    }

    @Test(arguments: ["memoirai/storybook.json", "roger/story.json", "infinitestories/story.json"])
    func appFilesExportUnchangedAndImport(_ file: String) throws {
        let input = Repository.samples.appendingPathComponent("apps/\(file)").path
        let out = try temporaryDirectory("app")
        let r = try bookrender(["export", input, "-o", out.appendingPathComponent("app.pdf").path])
        #expect(r.status == 0, "\(r.stderr)")
        let converted = out.appendingPathComponent("book.json").path
        let i = try bookrender(["import", input, "-o", converted])
        #expect(i.status == 0, "\(i.stderr)")
        let v = try bookrender(["validate", converted])
        #expect(v.status == 0, "\(v.stderr)")
        let again = try bookrender(["export", converted, "-o", out.appendingPathComponent("book.pdf").path])
        #expect(again.status == 0, "\(again.stderr)")
        let a = try run("pdfinfo", [out.appendingPathComponent("app.pdf").path]).stdout.split(separator: "\n").filter { $0.hasPrefix("Pages") }
        let b = try run("pdfinfo", [out.appendingPathComponent("book.pdf").path]).stdout.split(separator: "\n").filter { $0.hasPrefix("Pages") }
        #expect(a == b, "importing then exporting gives the same pages as exporting the app file")
    }

    @Test func invalidJSONNamesFileLineAndColumn() throws {
        let dir = try temporaryDirectory("badjson")
        try Data("{\n  \"schema\": 1,\n  \"title\": \"x\",,\n}".utf8).write(to: dir.appendingPathComponent("book.json"))
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", dir.appendingPathComponent("o.pdf").path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("book.json:3:16: "), "\(r.stderr)")
        #expect(try visibleFiles(dir) == ["book.json"], "no output and no temporary file on failure")
    }

    @Test func schemaErrorNamesTheJSONPathAndWhatWasExpected() throws {
        let dir = try scratchBook(pages: #"[{"type": "illustration", "text": "a", "scene": "s"}, {"type": "pitcure"}]"#)
        let r = try bookrender(["validate", dir.appendingPathComponent("book.json").path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("$.pages[1].type"), "\(r.stderr)")
        #expect(r.stderr.contains("illustration") && r.stderr.contains("spread"), "lists the accepted page types: \(r.stderr)")
    }

    @Test func missingImageIsAPlaceholderUnlessStrict() throws {
        let dir = try scratchBook(pages: #"[{"type": "illustration", "image": "gone.jpg", "text": "Where?"}]"#)
        let book = dir.appendingPathComponent("book.json").path
        let pdf = dir.appendingPathComponent("o.pdf").path
        let report = dir.appendingPathComponent("r.json").path
        let r = try bookrender(["export", book, "-o", pdf, "--report", report])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("page 2") && r.stderr.contains("gone.jpg"), "\(r.stderr)")
        let written = try JSONDecoder().decode(ExportReport.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
        #expect(written.placeholders.map(\.pages) == [[2]] && written.placeholders.first?.jsonPath == "$.pages[0]")

        try FileManager.default.removeItem(atPath: pdf)
        let s = try bookrender(["export", book, "-o", pdf, "--strict"])
        #expect(s.status == 65)
        #expect(s.stderr.contains("gone.jpg"))
        // The console says "error:" once, not again for the finding it reports.
        #expect(s.stderr.hasPrefix("error: ") && s.stderr.components(separatedBy: "error:").count == 2, "\(s.stderr)")
        #expect(!s.stderr.contains("error: error:"), "\(s.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pdf))
    }

    @Test func corruptImageIsAnErrorNamingPageAndFileAndNothingIsOverwritten() throws {
        var truncated = try Data(contentsOf: try scratchBook(pages: "[]").appendingPathComponent("ok.jpg"))
        truncated = truncated.prefix(truncated.count / 2)
        let dir = try scratchBook(pages: #"[{"type": "text", "text": "Hi."}, {"type": "photo", "image": "broken.jpg", "caption": "c"}]"#,
                                  extraFiles: ["broken.jpg": truncated, "junk.png": Data("not a png".utf8)])
        let pdf = dir.appendingPathComponent("o.pdf")
        try Data("%PDF-1.5 previous output".utf8).write(to: pdf)
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", pdf.path, "--png", dir.appendingPathComponent("png").path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("$.pages[1]") && r.stderr.contains("broken.jpg"), "\(r.stderr)")
        #expect(try Data(contentsOf: pdf) == Data("%PDF-1.5 previous output".utf8), "a failed export leaves the old file alone")
        let files = try visibleFiles(dir)
        #expect(files.allSatisfy { !$0.hasPrefix(".") }, "no temporary files left: \(files)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("broken.jpg")) == truncated, "the user's image is untouched")
    }

    @Test func imagePathsMayNotLeaveTheBookFolder() throws {
        let dir = try scratchBook(pages: #"[{"type": "photo", "image": "../../etc/passwd", "caption": "c"}]"#)
        let r = try bookrender(["validate", dir.appendingPathComponent("book.json").path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("$.pages[0].image"), "\(r.stderr)")
    }

    @Test func missingInputAndUnwritableOutputHaveTheirOwnExitCodes() throws {
        let dir = try temporaryDirectory("codes")
        let r = try bookrender(["export", dir.appendingPathComponent("nope.json").path, "-o", dir.appendingPathComponent("o.pdf").path])
        #expect(r.status == 66)
        #expect(r.stderr.contains("nope.json"))
        let blocker = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let w = try bookrender(["export", sampleBook("storybook"), "-o", blocker.appendingPathComponent("sub/o.pdf").path])
        #expect(w.status == 73, "\(w.stderr)")
        let u = try bookrender(["export", sampleBook("storybook"), "-o", "x.txt"])
        #expect(u.status == 64)
    }

    @Test func pageRangeWritesOnlyThosePages() throws {
        let out = try temporaryDirectory("range")
        let pdf = out.appendingPathComponent("r.pdf").path
        let r = try bookrender(["export", sampleBook("memoir"), "-o", pdf, "--pages", "3-7", "--png", out.appendingPathComponent("p").path, "--dpi", "20"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try run("pdfinfo", [pdf]).stdout.contains("Pages:           5"))
        #expect(try visibleFiles(out.appendingPathComponent("p")) == (3...7).map { String(format: "page-%03d.png", $0) })
        let bad = try bookrender(["export", sampleBook("memoir"), "-o", pdf, "--pages", "400-401"])
        #expect(bad.status == 64)
    }

    @Test func infoListsPagesPlaceholdersFontsAndImageDPI() throws {
        let r = try bookrender(["info", sampleBook("storybook"), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let d = try JSONDecoder().decode(BookDescription.self, from: Data(r.stdout.utf8))
        #expect(d.physicalPages > 10)
        #expect(d.missingIllustrations.count == 1)
        #expect(d.fonts.contains { $0.hasSuffix("Andika-Regular.ttf") })
        #expect(d.images.contains { $0.origin == "images/spread-bay.jpg" && $0.pages.count == 2 })
        #expect(d.images.allSatisfy { $0.lowestEffectiveDPI > 50 })
    }

    @Test func validateListsEveryProblem() throws {
        let dir = try scratchBook(pages: #"[{"type": "photo"}, {"type": "qr"}, {"type": "chapter"}]"#)
        let r = try bookrender(["validate", dir.appendingPathComponent("book.json").path])
        #expect(r.status == 65)
        for path in ["$.pages[0]", "$.pages[1]", "$.pages[2]"] { #expect(r.stderr.contains(path), "\(path) missing from: \(r.stderr)") }
    }
}

extension CLITests {
    @Test func importCanExtractImagesButNeverReplacesTheUsersFiles() throws {
        let input = Repository.samples.appendingPathComponent("apps/roger/story.json").path
        let dir = try temporaryDirectory("extract")
        let out = dir.appendingPathComponent("book.json").path
        let r = try bookrender(["import", input, "-o", out, "--extract-images"])
        #expect(r.status == 0, "\(r.stderr)")
        let images = try visibleFiles(dir.appendingPathComponent("images"))
        #expect(images.count >= 4 && images.allSatisfy { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }, "\(images)")
        #expect(try !String(contentsOfFile: out, encoding: .utf8).contains("base64"))
        #expect(try bookrender(["export", out, "-o", dir.appendingPathComponent("b.pdf").path]).status == 0)

        // Same bytes already there: fine. Different bytes under the same name: refused, nothing replaced.
        let again = try bookrender(["import", input, "-o", out, "--extract-images", "--force"])
        #expect(again.status == 0, "\(again.stderr)")
        let victim = dir.appendingPathComponent("images/\(images[0])")
        try Data("my own picture".utf8).write(to: victim)
        let clash = try bookrender(["import", input, "-o", dir.appendingPathComponent("other.json").path, "--extract-images"])
        #expect(clash.status == 73)
        #expect(clash.stderr.contains(images[0]))
        #expect(try Data(contentsOf: victim) == Data("my own picture".utf8))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("other.json").path))
    }
}
