import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// A file the user made read-only is one they mean to keep: an output there is refused (exit 73,
/// saying `--force`) unless forced. Tests run as root, who may write any file, so the refusal is
/// bookrender's own reading of the mode, not the system's.
@Suite struct ReadOnlyOutputTests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    func sampleBook(_ name: String) -> String { Repository.samples.appendingPathComponent("\(name)/book.json").path }

    /// `file` made read-only with `contents`; returns them.
    @discardableResult
    func readOnly(_ file: URL, _ contents: Data) throws -> Data {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file)
        chmod(file.path, 0o444)
        return contents
    }

    func expectRefused(_ r: ToolResult, _ file: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 73, "exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(file.path) && r.stderr.contains("read-only") && r.stderr.contains("--force"), "\(r.stderr)",
                sourceLocation: sourceLocation)
    }

    @Test func aReadOnlyPDFOrReportIsReplacedOnlyWithForce() throws {
        let dir = try temporaryDirectory("read-only")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf"), report = dir.appendingPathComponent("report.json")
        let oldPDF = try readOnly(pdf, Data("%PDF-1.4\n% the printer's copy\n".utf8))
        expectRefused(try bookrender(["export", sampleBook("storybook"), "-o", pdf.path]), pdf)
        #expect(try Data(contentsOf: pdf) == oldPDF)

        let forced = try bookrender(["export", sampleBook("storybook"), "-o", pdf.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: pdf) != oldPDF)

        let oldReport = try readOnly(report, Data("{\"kept\": true}".utf8))
        let other = dir.appendingPathComponent("other.pdf")
        expectRefused(try bookrender(["export", sampleBook("storybook"), "-o", other.path, "--report", report.path]), report)
        #expect(try Data(contentsOf: report) == oldReport)
        #expect(!FileManager.default.fileExists(atPath: other.path), "refused before anything is written")
    }

    @Test func aReadOnlyPagePNGStopsTheExportBeforeAnyPageIsWritten() throws {
        let dir = try temporaryDirectory("read-only-pages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = dir.appendingPathComponent("pages"), pdf = dir.appendingPathComponent("book.pdf")
        let first = try bookrender(["export", sampleBook("storybook"), "-o", pdf.path, "--png", pages.path, "--dpi", "20"])
        try #require(first.status == 0, "\(first.stderr)")
        let page = pages.appendingPathComponent("page-002.png")
        chmod(page.path, 0o444)
        let before = try OutputFixtures.contents(of: pages)
        expectRefused(try bookrender(["export", sampleBook("storybook"), "-o", pdf.path, "--png", pages.path, "--dpi", "30"]), page)
        #expect(try OutputFixtures.contents(of: pages) == before)

        let forced = try bookrender(["export", sampleBook("storybook"), "-o", pdf.path, "--png", pages.path, "--dpi", "30", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try OutputFixtures.contents(of: pages)["page-002.png"] != before["page-002.png"])
    }

    @Test func aReadOnlyCoverIsReplacedOnlyWithForce() throws {
        let dir = try temporaryDirectory("read-only-cover")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cover = dir.appendingPathComponent("cover.pdf")
        let old = try readOnly(cover, Data("%PDF-1.4\n% approved\n".utf8))
        expectRefused(try bookrender(["cover", sampleBook("memoir"), "-o", cover.path, "--profile", "kdp"]), cover)
        #expect(try Data(contentsOf: cover) == old)
        let forced = try bookrender(["cover", sampleBook("memoir"), "-o", cover.path, "--profile", "kdp", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test func illustrateLeavesAReadOnlyBookAlone() throws {
        let dir = try temporaryDirectory("read-only-illustrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = dir.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book)
        let json = book.appendingPathComponent("book.json")
        chmod(json.path, 0o444)
        let before = try OutputFixtures.contents(of: book)
        let images = try FileManager.default.contentsOfDirectory(atPath: book.appendingPathComponent("images").path).sorted()
        let r = try bookrender(["illustrate", json.path, "--provider", "local", "--cache", dir.appendingPathComponent("cache").path])
        #expect(r.status == 73, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains(json.path) && r.stderr.contains("read-only"), "\(r.stderr)")
        #expect(try OutputFixtures.contents(of: book) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: book.appendingPathComponent("images").path).sorted() == images)
    }

    @Test func theLibraryRefusesAReadOnlyOutputUnlessForced() throws {
        let dir = try temporaryDirectory("read-only-library")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        let old = try readOnly(pdf, Data("%PDF-1.4\n% kept\n".utf8))
        let document = try TestBooks.open(URL(fileURLWithPath: sampleBook("storybook")))
        #expect {
            try document.export(ExportOptions(pdf: pdf))
        } throws: { error in
            (error as? BookRenderError)?.kind == .unwritableOutput && "\(error)".contains("--force")
        }
        #expect(try Data(contentsOf: pdf) == old)
        _ = try document.export(ExportOptions(pdf: pdf, force: true))
        #expect(try Data(contentsOf: pdf) != old)
    }

    @Test func anExportWritesNothingIntoTheBooksFolder() throws {
        let dir = try temporaryDirectory("book-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = dir.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book)
        func everything() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.subpathsOfDirectory(atPath: book.path) {
                files[name] = FileManager.default.contents(atPath: book.appendingPathComponent(name).path) ?? Data()
            }
            return files
        }
        let before = try everything()
        let out = dir.appendingPathComponent("out")
        let json = book.appendingPathComponent("book.json").path
        for args in [["export", json, "-o", out.appendingPathComponent("a.pdf").path, "--png", out.appendingPathComponent("p").path,
                      "--dpi", "20", "--spreads", "--report", out.appendingPathComponent("r.json").path],
                     ["export", json, "-o", out.appendingPathComponent("b.pdf").path, "--profile", "kdp", "--force"],
                     ["cover", json, "-o", out.appendingPathComponent("c.pdf").path, "--profile", "kdp"],
                     ["validate", json], ["info", json]] {
            let r = try bookrender(args)
            #expect(r.status == 0, "\(args[0]): \(r.stderr)")
        }
        #expect(try everything() == before)
    }
}
