import Foundation
import Testing
import BookTestSupport

/// What a scheduler's run of `bookrender batch` needs to be told and to find: placeholders
/// reported, summaries written into folders that do not exist yet (or the run fails), shared
/// outputs refused, and temporaries of killed exports removed before their books run again.
@Suite struct BatchReportingTests {
    func write(_ lines: [String], in dir: URL) throws -> URL {
        let manifest = dir.appendingPathComponent("jobs.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: manifest)
        return manifest
    }

    func events(_ r: ToolResult) -> [[String: Any]] {
        r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func aBookWithAMissingPictureIsDoneWithItsPlaceholderReportedAndStrictFailsIt() throws {
        let dir = try temporaryDirectory("batch-placeholder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = dir.appendingPathComponent("memoir")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("memoir"), to: book)
        try FileManager.default.removeItem(at: book.appendingPathComponent("images/portrait-grey.jpg"))
        let manifest = try write([#"{"input": "memoir/book.json", "output": "out/a.pdf"}"#,
                                  #"{"input": "memoir/book.json", "output": "out/b.pdf", "options": {"strict": true}}"#], in: dir)
        let summaryURL = dir.appendingPathComponent("summaries/0/summary.json")
        let r = try run(try Repository.binary.path, ["batch", manifest.path, "--jobs", "2", "--summary", summaryURL.path])
        #expect(r.status == 1, "\(r.stderr)")
        let jobs = events(r).filter { $0["event"] as? String == "job" }
        let rendered = try #require(jobs.first { $0["id"] as? String == "line 1" })
        #expect(rendered["status"] as? String == "done")
        #expect(rendered["placeholders"] as? Int == 1)
        #expect((rendered["warnings"] as? [String])?.contains { $0.contains("portrait-grey.jpg") } == true, "\(rendered)")
        let strict = try #require(jobs.first { $0["id"] as? String == "line 2" })
        let error = try #require(strict["error"] as? String)
        #expect(strict["status"] as? String == "failed")
        #expect(error.contains("$.pages[3].image") && error.contains("--strict"), "\(error)")
        #expect(!error.contains("drawing a placeholder") && !error.contains("$.pages[3]: $.pages[3]"), "\(error)")
        #expect(r.stderr.contains("WARNING line 1"), "\(r.stderr)")
        // The summary's folder did not exist: it is made.
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: summaryURL)) as? [String: Any])
        #expect(summary["placeholders"] as? Int == 1)

        // Up to date the next time, and still reported.
        let again = try run(try Repository.binary.path, ["batch", manifest.path, "--jobs", "2"])
        let skipped = try #require(events(again).first { $0["id"] as? String == "line 1" && $0["event"] as? String == "job" })
        #expect(skipped["status"] as? String == "skipped" && skipped["placeholders"] as? Int == 1, "\(skipped)")
    }

    @Test func aSummaryThatCannotBeWrittenFailsTheRun() throws {
        let dir = try temporaryDirectory("batch-summary")
        defer { try? FileManager.default.removeItem(at: dir) }
        let manifest = try write([#"{"input": "\#(Repository.samples.path)/memoir/book.json", "output": "out/a.pdf"}"#], in: dir)
        // A file where the summary's folder should be.
        try Data().write(to: dir.appendingPathComponent("blocked"))
        let r = try run(try Repository.binary.path, ["batch", manifest.path, "--summary", dir.appendingPathComponent("blocked/s.json").path])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write the summary"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/a.pdf").path))
    }

    @Test func twoLinesWritingOneOutputAreRefused() throws {
        let dir = try temporaryDirectory("batch-clash")
        defer { try? FileManager.default.removeItem(at: dir) }
        let memoir = Repository.samples.appendingPathComponent("memoir/book.json").path
        let manifest = try write([#"{"input": "\#(memoir)", "output": "out/a.pdf"}"#,
                                  #"{"input": "\#(memoir)", "output": "out/./a.pdf"}"#], in: dir)
        let r = try run(try Repository.binary.path, ["batch", manifest.path])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr.contains("line 1 and line 2 would both write"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    @Test func temporariesOfAKilledExportAreRemovedBeforeItsBookRunsAgain() throws {
        let dir = try temporaryDirectory("batch-stale")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), pages = out.appendingPathComponent("a-pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        // A process that has ended: a child that exited at once.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        let stale = [out.appendingPathComponent(".a.pdf.partial-\(dead)-123"), pages.appendingPathComponent(".pages.partial-\(dead)-7")]
        let live = out.appendingPathComponent(".a.pdf.partial-\(getpid())-5")
        try Data("half a PDF".utf8).write(to: stale[0])
        try FileManager.default.createDirectory(at: stale[1], withIntermediateDirectories: true)
        try Data("half a page".utf8).write(to: stale[1].appendingPathComponent("page-001.png"))
        try Data("still being written".utf8).write(to: live)
        let manifest = try write([#"{"input": "\#(Repository.samples.path)/memoir/book.json", "output": "out/a.pdf", "options": {"png": "out/a-pages", "dpi": 20}}"#], in: dir)
        let r = try run(try Repository.binary.path, ["batch", manifest.path])
        #expect(r.status == 0, "\(r.stderr)")
        for url in stale { #expect(!FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) left") }
        #expect(FileManager.default.fileExists(atPath: live.path), "a running process's temporary was removed")
    }
}
