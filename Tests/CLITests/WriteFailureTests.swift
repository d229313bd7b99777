import Testing
import Foundation
import BookTestSupport

/// An output that cannot be written, whatever the reason the system gives, is exit 73 with the
/// file the user named and the system's reason in its own words, never Foundation's error text or
/// the name of a temporary file, and leaves no temporary behind.
@Suite struct WriteFailureTests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    func sampleBook(_ name: String) -> String { Repository.samples.appendingPathComponent("\(name)/book.json").path }

    func expectWriteFailure(_ r: ToolResult, naming file: URL, reason: String, _ what: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 73, "\(what): exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(file.path), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(reason), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
        for raw in ["Error Domain=", "NSCocoaErrorDomain", "The operation could not be completed", ".partial-"] {
            #expect(!r.stderr.contains(raw), "\(what): \(r.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: OutputFixtures.canMountTmpfs, "needs a tmpfs: root with CAP_SYS_ADMIN"))
    func aFullDiskIsExit73WithTheSystemsReasonForEveryOutput() throws {
        let disk = try #require(try OutputFixtures.mountTmpfs(kilobytes: 200))
        defer { OutputFixtures.unmount(disk) }
        let elsewhere = try temporaryDirectory("write-failure")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let memoir = sampleBook("memoir")

        let pdf = disk.appendingPathComponent("book.pdf")
        expectWriteFailure(try bookrender(["export", memoir, "-o", pdf.path]), naming: pdf, reason: "No space left on device", "the PDF")
        // Finished for a printer: written by qpdf, and by Ghostscript for CMYK.
        for profile in ["kdp", "ingramspark"] {
            expectWriteFailure(try bookrender(["export", memoir, "-o", pdf.path, "--profile", profile, "--force"]),
                               naming: pdf, reason: "No space left on device", "the \(profile) PDF")
        }
        let pages = disk.appendingPathComponent("pages")
        expectWriteFailure(try bookrender(["export", memoir, "-o", elsewhere.appendingPathComponent("a.pdf").path,
                                           "--png", pages.path, "--dpi", "300"]),
                           naming: pages, reason: "No space left on device", "the page PNGs")
        let cover = disk.appendingPathComponent("cover")
        expectWriteFailure(try bookrender(["cover", memoir, "-o", elsewhere.appendingPathComponent("c.pdf").path, "--profile", "kdp",
                                           "--png", cover.path, "--dpi", "300"]),
                           naming: cover, reason: "No space left on device", "the cover PNG")
        // Smaller than the report.
        let disk2 = try #require(try OutputFixtures.mountTmpfs(kilobytes: 4))
        defer { OutputFixtures.unmount(disk2) }
        let report = disk2.appendingPathComponent("report.json")
        expectWriteFailure(try bookrender(["export", memoir, "-o", elsewhere.appendingPathComponent("b.pdf").path, "--report", report.path]),
                           naming: report, reason: "No space left on device", "the report")

        #expect(OutputFixtures.temporaries(in: [disk, pages, cover, disk2]).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).filter { $0 != "pages" && $0 != "cover" } == [])
    }

    @Test(.enabled(if: OutputFixtures.canMountTmpfs, "needs a tmpfs: root with CAP_SYS_ADMIN"))
    func aReadOnlyFileSystemIsExit73() throws {
        let disk = try #require(try OutputFixtures.mountTmpfs(kilobytes: 1024))
        defer { OutputFixtures.unmount(disk) }
        try OutputFixtures.remountReadOnly(disk)
        let pdf = disk.appendingPathComponent("book.pdf")
        expectWriteFailure(try bookrender(["export", sampleBook("storybook"), "-o", pdf.path]),
                           naming: pdf, reason: "Read-only file system", "the PDF")
    }

    @Test func aFolderThisUserMayNotWriteIsExit73ForEveryOutput() throws {
        let locked = try OutputFixtures.unwritableFolder()
        let open = try temporaryDirectory("write-failure")
        chmod(open.path, 0o777)
        defer {
            for dir in [locked, open, open.appendingPathComponent("storybook"), open.appendingPathComponent("storybook/images")] {
                chmod(dir.path, 0o755)
            }
            try? FileManager.default.removeItem(at: locked)
            try? FileManager.default.removeItem(at: open)
        }
        let binary = try Repository.binary.path
        func asUser(_ args: [String]) throws -> ToolResult {
            let (program, arguments) = OutputFixtures.unprivileged(binary, args)
            return try run(program, arguments)
        }
        let book = sampleBook("storybook")
        let free = open.appendingPathComponent("ok.pdf").path
        let pdf = locked.appendingPathComponent("book.pdf")
        expectWriteFailure(try asUser(["export", book, "-o", pdf.path]), naming: pdf, reason: "Permission denied", "the PDF")
        let pages = locked.appendingPathComponent("pages")
        expectWriteFailure(try asUser(["export", book, "-o", free, "--png", pages.path]), naming: pages, reason: "Permission denied", "the PNG folder")
        let report = locked.appendingPathComponent("report.json")
        expectWriteFailure(try asUser(["export", book, "-o", free, "--report", report.path]), naming: report, reason: "Permission denied", "the report")
        let cover = locked.appendingPathComponent("cover.pdf")
        expectWriteFailure(try asUser(["cover", sampleBook("memoir"), "-o", cover.path, "--profile", "kdp"]),
                           naming: cover, reason: "Permission denied", "the cover")
        let imported = locked.appendingPathComponent("book.json")
        expectWriteFailure(try asUser(["import", Repository.samples.appendingPathComponent("apps/roger/story.json").path,
                                       "-o", imported.path]),
                           naming: imported, reason: "Permission denied", "the imported book")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)

        // illustrate writes into the book's folder, its journal first.
        let book2 = open.appendingPathComponent("storybook")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book2)
        chmod(book2.appendingPathComponent("images").path, 0o555)
        chmod(book2.path, 0o555)
        expectWriteFailure(try asUser(["illustrate", book2.appendingPathComponent("book.json").path, "--provider", "local",
                                       "--cache", open.appendingPathComponent("cache").path]),
                           naming: book2.appendingPathComponent("book.illustrate.json"), reason: "Permission denied", "the journal")
        #expect(OutputFixtures.temporaries(in: [book2, book2.appendingPathComponent("images")]).isEmpty)
    }

    @Test func aFolderThatRefusesEvenRootIsExit73() throws {
        let dir = try temporaryDirectory("immutable")
        defer {
            _ = try? run("chattr", ["-i", dir.path])
            try? FileManager.default.removeItem(at: dir)
        }
        // An immutable folder refuses new files with EPERM, to root as well; file systems without
        // the attribute (overlays) refuse chattr, and then there is nothing to test.
        guard let set = try? run("chattr", ["+i", dir.path]), set.status == 0 else { return }
        let pdf = dir.appendingPathComponent("book.pdf")
        expectWriteFailure(try bookrender(["export", sampleBook("storybook"), "-o", pdf.path]),
                           naming: pdf, reason: "Operation not permitted", "the PDF")
    }

    @Test func aFileWhereAFolderShouldBeIsExit73() throws {
        let dir = try temporaryDirectory("not-a-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let pdf = file.appendingPathComponent("book.pdf")
        expectWriteFailure(try bookrender(["export", sampleBook("storybook"), "-o", pdf.path]),
                           naming: pdf.deletingLastPathComponent(), reason: "Not a directory", "the PDF")
        let report = file.appendingPathComponent("report.json")
        expectWriteFailure(try bookrender(["export", sampleBook("storybook"), "-o", dir.appendingPathComponent("ok.pdf").path,
                                           "--report", report.path]),
                           naming: report.deletingLastPathComponent(), reason: "Not a directory", "the report")
    }
}
