import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// A cover as the export report, `info`, `--strict` and the cover sheet see it: a book with no
/// cover picture has a finished cover; a cover picture that is named but missing is a placeholder
/// like any other.
@Suite struct CoverPlaceholderCLITests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    func book(cover: String?, theme: String) throws -> URL {
        let dir = try temporaryDirectory("cover-\(theme)")
        let coverJSON = cover.map { #", "cover": {"photo": "\#($0)"}"# } ?? ""
        let json = #"{"schema": 1, "kind": "storybook", "title": "The Great Adventure at Sunny Acres Farm", "author": "Ada Whitlow", "theme": "\#(theme)"\#(coverJSON), "pages": [{"type": "text", "text": "The hens were up first."}]}"#
        try Data(json.utf8).write(to: dir.appendingPathComponent("book.json"))
        return dir
    }

    @Test(arguments: ["picture-book", "memoir"])
    func aBookWithNoCoverPictureIsNotAPlaceholderAndPassesStrict(_ theme: String) throws {
        let dir = try book(cover: nil, theme: theme)
        let report = dir.appendingPathComponent("r.json").path
        let r = try bookrender(["export", dir.appendingPathComponent("book.json").path, "-o", dir.appendingPathComponent("o.pdf").path,
                                "--strict", "--report", report])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("placeholder"), "\(r.stderr)")
        let written = try JSONDecoder().decode(ExportReport.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
        #expect(written.placeholders.isEmpty)
        #expect(written.pages.first?.placeholder == false)
        let info = try bookrender(["info", dir.appendingPathComponent("book.json").path])
        #expect(info.stdout.contains("missing illustrations: none"), "\(info.stdout)")
    }

    @Test(arguments: ["picture-book", "memoir"])
    func aMissingCoverPictureIsReportedAndFailsStrict(_ theme: String) throws {
        let dir = try book(cover: "images/front.jpg", theme: theme)
        let book = dir.appendingPathComponent("book.json").path, pdf = dir.appendingPathComponent("o.pdf").path
        let report = dir.appendingPathComponent("r.json").path
        let r = try bookrender(["export", book, "-o", pdf, "--report", report])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("page 1") && r.stderr.contains("images/front.jpg") && r.stderr.contains("1 placeholder"), "\(r.stderr)")
        let written = try JSONDecoder().decode(ExportReport.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
        #expect(written.placeholders.map(\.pages) == [[1]])
        #expect(written.pages.first?.placeholder == true)
        let info = try bookrender(["info", book])
        #expect(info.stdout.contains("images/front.jpg") && !info.stdout.contains("missing illustrations: none"), "\(info.stdout)")

        try FileManager.default.removeItem(atPath: pdf)
        let s = try bookrender(["export", book, "-o", pdf, "--strict"])
        #expect(s.status == 65, "the exit code of every other placeholder under --strict")
        #expect(s.stderr.contains("images/front.jpg"))
        #expect(!FileManager.default.fileExists(atPath: pdf))
    }

    @Test func aTextOnlyAppStoryGetsAPrintableCoverSheet() throws {
        let dir = try temporaryDirectory("cover-sheet-text-only")
        let pdf = dir.appendingPathComponent("cover.pdf").path
        let story = Repository.samples.appendingPathComponent("apps/infinitestories/story.json").path
        let r = try bookrender(["cover", story, "-o", pdf, "--profile", "kdp"])
        #expect(r.status == 0, "no placeholder on the front panel for preflight to refuse: \(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: pdf))
    }
}
