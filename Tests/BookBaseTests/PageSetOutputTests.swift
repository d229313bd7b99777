import Testing
import Foundation
import BookBase
import BookTestSupport

/// A folder's pages are replaced as a set: all the new ones, or none of them.
@Suite struct PageSetOutputTests {
    func folder(with pages: [Int], marked mark: String, extra: [String] = []) throws -> URL {
        let dir = try temporaryDirectory("page-set")
        for page in pages { try Data("\(mark) \(page)".utf8).write(to: dir.appendingPathComponent(PageFileName.page(page))) }
        for name in extra { try Data(name.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    func write(_ pages: [Int], marked mark: String, into staging: URL, failingAt failure: Int? = nil) throws -> [URL] {
        try pages.map { page in
            if page == failure { throw OutputError("cannot write \(staging.appendingPathComponent(PageFileName.page(page)).path): No space left on device") }
            let url = staging.appendingPathComponent(PageFileName.page(page))
            try Data("\(mark) \(page)".utf8).write(to: url)
            return url
        }
    }

    @Test func aSetThatFailsHalfWayLeavesThePreviousSetAndNoTemporaries() throws {
        let dir = try folder(with: Array(1...14), marked: "old", extra: ["notes.txt"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try OutputFixtures.contents(of: dir)
        #expect(throws: OutputError.self) {
            try PageSetOutput.write(into: dir) { staging in try write(Array(1...14), marked: "new", into: staging, failingAt: 9) }
        }
        #expect(try OutputFixtures.contents(of: dir) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).count == before.count, "no staging folder left")
    }

    @Test func theErrorNamesTheFolderTheUserGaveNotTheStagingFolder() throws {
        let dir = try folder(with: [], marked: "old")
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try PageSetOutput.write(into: dir) { staging in try write([1, 2], marked: "new", into: staging, failingAt: 2) }
            Issue.record("the write succeeded")
        } catch let error as OutputError {
            #expect(error.message == "cannot write \(dir.appendingPathComponent("page-002.png").path): No space left on device")
        }
    }

    @Test func aCompleteSetReplacesThePreviousOneAndRemovesItsStalePagesOnly() throws {
        let dir = try folder(with: Array(1...14), marked: "old", extra: ["notes.txt", "spread-002-003.png"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try PageSetOutput.write(into: dir) { staging in try write(Array(1...10), marked: "new", into: staging) }
        #expect(written.map(\.lastPathComponent) == (1...10).map(PageFileName.page))
        var expected = Dictionary(uniqueKeysWithValues: (1...10).map { (PageFileName.page($0), Data("new \($0)".utf8)) })
        expected["notes.txt"] = Data("notes.txt".utf8)
        #expect(try OutputFixtures.contents(of: dir) == expected)
    }

    @Test func selectedPagesReplaceOnlyTheirOwnFiles() throws {
        let dir = try folder(with: Array(1...6), marked: "old")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try PageSetOutput.write(into: dir, pages: [3, 4]) { staging in try write([3, 4], marked: "new", into: staging) }
        let contents = try OutputFixtures.contents(of: dir)
        #expect(contents.count == 6)
        for page in 1...6 {
            #expect(contents[PageFileName.page(page)] == Data("\([3, 4].contains(page) ? "new" : "old") \(page)".utf8))
        }
    }

    @Test func aFullDeviceIsAnOutputErrorInTheSystemsWords() throws {
        #expect {
            try AtomicOutput.write(Data(count: 1 << 16), to: URL(fileURLWithPath: "/dev/full"))
        } throws: { error in
            (error as? OutputError)?.message == "cannot write /dev/full: No space left on device"
        }
    }

    @Test func whatAnEndedProcessLeftIsRemovedAndNothingElse() throws {
        let dir = try temporaryDirectory("leftovers")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pid: pid_t = 4_000_000
        let output = dir.appendingPathComponent("book.pdf"), pages = dir.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages.appendingPathComponent(".pages.partial-\(pid)-7"), withIntermediateDirectories: true)
        for name in [".book.pdf.partial-\(pid)-1", ".book.pdf.partial-\(pid)-2.cairo.pdf", ".book.pdf.partial-\(pid + 1)-1", "book.pdf"] {
            try Data(name.utf8).write(to: dir.appendingPathComponent(name))
        }
        try Data().write(to: pages.appendingPathComponent(".pages.partial-\(pid)-7/page-001.png"))
        let removed = TemporaryFiles.Leftovers(ofProcess: pid, writing: [output, pages]).remove()
        #expect(removed == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [".book.pdf.partial-\(pid + 1)-1", "book.pdf", "pages"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: pages.path) == [])
    }
}
