import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// `export --report`: the library's report on success, its error as JSON on failure, and never
/// written over an input of the run.
@Suite struct ReportCLITests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    func scratch(_ pages: String) throws -> URL {
        let dir = try temporaryDirectory("report")
        try run("convert", ["-size", "300x400", "gradient:#88CCEE-#FFEEAA", dir.appendingPathComponent("ok.jpg").path])
        // No "The End" page: the pages counted are the cover and the book's own.
        let json = #"{"schema": 1, "kind": "storybook", "title": "Report", "matter": {"theEnd": false}, "pages": \#(pages)}"#
        try Data(json.utf8).write(to: dir.appendingPathComponent("book.json"))
        return dir
    }

    @Test func aSuccessWritesTheReportWithStagesFontsAndImages() throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        let report = dir.appendingPathComponent("r.json")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", dir.appendingPathComponent("o.pdf").path,
                                "--report", report.path])
        #expect(r.status == 0, "\(r.stderr)")
        let outcome = try ExportOutcome.read(report)
        let written = try #require(outcome.report)
        #expect(outcome.error == nil)
        #expect(written.pageCount == 2 && written.writtenPages == [1, 2])
        #expect(written.images.map(\.origin) == ["ok.jpg"] && written.images[0].pages == [2])
        #expect(written.fonts.contains { $0.hasSuffix(".ttf") })
        #expect(Set(written.timings.map(\.stage)).isSuperset(of: ["load", "resolve"]))
        #expect(written.timings.allSatisfy { $0.seconds >= 0 })
    }

    @Test func aFailureWritesTheErrorAsJSON() throws {
        let dir = try scratch(#"[{"type": "photo"}]"#)
        let report = dir.appendingPathComponent("r.json")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", dir.appendingPathComponent("o.pdf").path,
                                "--report", report.path])
        #expect(r.status == 65)
        let error = try #require(try ExportOutcome.read(report).error)
        #expect(error.kind == .invalidBook && error.exitCode == 65)
        #expect(error.diagnostics.contains { $0.jsonPath == "$.pages[0].image" }, "\(error.diagnostics)")
    }

    @Test(arguments: ["--report", "-o"])
    func anOutputThatIsTheBookIsRefusedAndTheBookKept(_ flag: String) throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        let book = dir.appendingPathComponent("book.json")
        let before = try Data(contentsOf: book)
        // The same file by another name: a symlink beside it.
        let alias = dir.appendingPathComponent("alias.pdf")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: book)
        let target = flag == "-o" ? alias.path : book.path
        var args = ["export", book.path, "-o", flag == "-o" ? target : dir.appendingPathComponent("o.pdf").path]
        if flag == "--report" { args += ["--report", target] }
        let r = try bookrender(args)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("an input of this run"), "\(r.stderr)")
        #expect(try Data(contentsOf: book) == before)
    }

    @Test func aReportThatIsAPictureOfTheBookIsRefused() throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        let picture = dir.appendingPathComponent("ok.jpg")
        let before = try Data(contentsOf: picture)
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", dir.appendingPathComponent("o.pdf").path,
                                "--report", picture.path])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(try Data(contentsOf: picture) == before)
    }

    @Test func aFailedBookIsNotReplacedByItsOwnErrorReport() throws {
        let dir = try scratch(#"[{"type": "photo"}]"#)
        let book = dir.appendingPathComponent("book.json")
        let before = try Data(contentsOf: book)
        let r = try bookrender(["export", book.path, "-o", dir.appendingPathComponent("o.pdf").path, "--report", book.path])
        #expect(r.status == 65)
        #expect(try Data(contentsOf: book) == before)
    }

    @Test func theReportAndThePDFCannotBeOneFile() throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        let out = dir.appendingPathComponent("o.pdf")
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", out.path, "--report", out.path])
        #expect(r.status == 73 && r.stderr.contains("is also"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// An existing file is replaced only by one of its kind; nothing at all is written otherwise.
    @Test(arguments: ["pdf", "report", "page"])
    func aUserFileOfAnotherKindIsNeverReplaced(_ which: String) throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        let photo = try Data(contentsOf: dir.appendingPathComponent("ok.jpg"))
        let pdf = dir.appendingPathComponent(which == "pdf" ? "holiday.pdf" : "o.pdf")
        var args = ["export", dir.appendingPathComponent("book.json").path, "-o", pdf.path]
        let victim: URL
        switch which {
        case "pdf":
            victim = pdf
        case "report":
            victim = dir.appendingPathComponent("numbers.json")
            args += ["--report", victim.path]
        default:
            let pages = dir.appendingPathComponent("pages")
            try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
            victim = pages.appendingPathComponent("page-002.png")
            args += ["--png", pages.path]
        }
        try photo.write(to: victim)
        let r = try bookrender(args)
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains(victim.lastPathComponent) && r.stderr.contains("another kind of file"), "\(r.stderr)")
        #expect(try Data(contentsOf: victim) == photo)
        if which != "pdf" { #expect(!FileManager.default.fileExists(atPath: pdf.path), "nothing is written") }
    }

    /// Every command that writes a report refuses one aimed at an input of its run, through the
    /// same check as export, and leaves that input as it was.
    @Test(arguments: ["cover-book", "cover-picture", "import", "batch", "compare"])
    func everyCommandRefusesAReportThatIsAnInput(_ which: String) throws {
        let dir = try scratch(#"[{"type": "illustration", "image": "ok.jpg", "text": "Hello."}]"#)
        let book = dir.appendingPathComponent("book.json")
        var args: [String]
        let victim: URL
        switch which {
        case "cover-book", "cover-picture":
            victim = which == "cover-book" ? book : dir.appendingPathComponent("ok.jpg")
            args = ["cover", book.path, "-o", dir.appendingPathComponent("cover.pdf").path, "--profile", "kdp", "--force",
                    "--report", victim.path]
        case "import":
            victim = dir.appendingPathComponent("story.json")
            try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("apps/roger/story.json"), to: victim)
            args = ["import", victim.path, "-o", dir.appendingPathComponent("imported.json").path, "--report", victim.path]
        case "batch":
            victim = dir.appendingPathComponent("jobs.jsonl")
            try Data(#"{"input": "book.json", "output": "out/book.pdf"}"#.utf8).write(to: victim)
            args = ["batch", victim.path, "--report", victim.path]
        default:
            let pages = dir.appendingPathComponent("pages")
            _ = try bookrender(["export", book.path, "--png", pages.path, "--dpi", "20"])
            victim = pages.appendingPathComponent("page-001.png")
            args = ["compare", pages.path, pages.path, "--report", victim.path]
        }
        let before = try Data(contentsOf: victim)
        let r = try bookrender(args)
        #expect(r.status != 0, "\(which): \(r.stderr)")
        #expect(r.stderr.contains(victim.path) || r.stderr.contains(victim.lastPathComponent), "\(which): \(r.stderr)")
        #expect(try Data(contentsOf: victim) == before, "\(which) left its input as it was")
        if which == "batch" { #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/book.pdf").path), "nothing rendered") }
    }

    /// `import` checks the book as `export` does: an app file whose pictures or texts export would
    /// refuse is refused (65, naming the place) and no book is written.
    @Test(arguments: ["svg", "garbage", "hugePNG", "hugeText"])
    func importRefusesWhatExportWouldRefuse(_ which: String) throws {
        let dir = try temporaryDirectory("import-check")
        var story = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.samples.appendingPathComponent("apps/roger/story.json"))) as! [String: Any]
        var pages = story["pages"] as! [[String: Any]]
        switch which {
        case "svg":
            pages[1]["imageData"] = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.utf8).base64EncodedString()
        case "garbage":
            pages[1]["imageData"] = Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).base64EncodedString()
        case "hugePNG":
            // A header that says 30,000 × 30,000 (900 megapixels) over a few bytes of pixels.
            var png = [UInt8](TestImages.tinyPNG())
            let side: [UInt8] = [0, 0, 0x75, 0x30]
            png.replaceSubrange(16..<24, with: side + side)
            let crc = TestImages.crc32(Array(png[12..<29]))
            png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)])
            pages[1]["imageData"] = Data(png).base64EncodedString()
        default:
            pages[1]["text"] = String(repeating: "word ", count: 400_000)
        }
        story["pages"] = pages
        let input = dir.appendingPathComponent("story.json")
        try JSONSerialization.data(withJSONObject: story).write(to: input)
        let out = dir.appendingPathComponent("book.json")
        let r = try bookrender(["import", input.path, "-o", out.path, "--extract-images"])
        #expect(r.status == 65, "\(which): \(r.stderr)")
        #expect(r.stderr.contains("pages[1]") || r.stderr.contains("page 2"), "\(which) names the page: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "no book written")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("images").path), "no picture written")
    }
}
