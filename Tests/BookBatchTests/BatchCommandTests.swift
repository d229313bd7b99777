import Foundation
import Testing
import BookTestSupport

/// The built `bookrender batch` on real books: copies of the sample storybook, rendered by child
/// processes of the binary.
@Suite struct BatchCommandTests {
    struct Summary: Decodable {
        struct Job: Decodable { var id: String; var status: String; var pages: Int?; var error: String?; var output: String }
        var done: Int; var skipped: Int; var failed: Int; var jobs: [Job]
    }

    /// `count` books (copies of the sample storybook) and a manifest naming them in order.
    func corpus(_ count: Int, corrupt: Set<Int> = []) throws -> (dir: URL, manifest: URL) {
        let dir = try temporaryDirectory("batch")
        var lines: [String] = []
        for i in 1...count {
            let book = dir.appendingPathComponent("books/b\(i)")
            try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book)
            if corrupt.contains(i) {
                try Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": ".utf8).write(to: book.appendingPathComponent("book.json"))
            }
            lines.append(#"{"input": "books/b\#(i)/book.json", "output": "out/b\#(i).pdf"}"#)
        }
        let manifest = dir.appendingPathComponent("jobs.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: manifest)
        return (dir, manifest)
    }

    func batch(_ args: [String]) throws -> (ToolResult, Summary?, URL) {
        let summaryURL = FileManager.default.temporaryDirectory.appendingPathComponent("summary-\(UUID().uuidString).json")
        let r = try run(try Repository.binary.path, ["batch"] + args + ["--summary", summaryURL.path])
        let summary = try? JSONDecoder().decode(Summary.self, from: Data(contentsOf: summaryURL))
        try? FileManager.default.removeItem(at: summaryURL)
        return (r, summary, summaryURL)
    }

    @Test func aCorruptBookFailsAloneAndTheOthersComplete() throws {
        let (dir, manifest) = try corpus(3, corrupt: [2])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, summary, _) = try batch([manifest.path, "--jobs", "2"])
        #expect(r.status == 1, "exit code: \(r.stderr)")
        let s = try #require(summary)
        #expect(s.done == 2 && s.failed == 1)
        #expect(s.jobs.map(\.status) == ["done", "failed", "done"])
        let bad = s.jobs[1]
        #expect(bad.id == "line 2")
        #expect(bad.error?.contains("book.json") == true, "error: \(bad.error ?? "")")
        #expect(s.jobs[0].pages ?? 0 > 1)
        for i in [1, 3] { #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/b\(i).pdf").path)) }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/b2.pdf").path))
        // Not a terminal: every job is a JSON Lines event on stdout, the last one the summary.
        let events = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.filter { $0["event"] as? String == "job" }.count == 3)
        #expect(events.last?["event"] as? String == "summary")
        #expect(r.stderr.contains("FAILED  line 2"))
    }

    /// A key that would do nothing (a typo of one that would) is refused before any job runs.
    @Test(arguments: [(#""prfile": "kdp""#, #"unknown key "prfile" (did you mean "profile"?)"#),
                      (#""options": {"thme": "memoir"}"#, #"unknown key "options.thme" (did you mean "options.theme"?)"#),
                      (#""colour": "red""#, #"unknown key "colour""#)])
    func anUnknownManifestKeyIsAUsageErrorNamingItsLine(_ extra: String, _ said: String) throws {
        let (dir, manifest) = try corpus(1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = #"{"input": "books/b1/book.json", "output": "out/good.pdf"}"#
        let bad = #"{"input": "books/b1/book.json", "output": "out/b1.pdf", \#(extra)}"#
        try Data("# two jobs\n\(good)\n\(bad)\n".utf8).write(to: manifest)
        let (r, _, _) = try batch([manifest.path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("jobs.jsonl:3: \(said)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path), "a job ran")
    }

    /// An export that ends before it can write its report (its flags refused) is reported with the
    /// error it printed, not only its exit code.
    @Test func anExportThatFailsBeforeItsReportIsReportedWithItsOwnError() throws {
        let (dir, manifest) = try corpus(1)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"input": "books/b1/book.json", "output": "out/b1.pdf", "options": {"pages": "seven"}}"#.utf8).write(to: manifest)
        let (r, summary, _) = try batch([manifest.path])
        #expect(r.status == 1, "\(r.stderr)")
        let error = try #require(summary?.jobs.first?.error)
        #expect(error.contains("seven") && !error.contains("without a report"), "\(error)")
    }

    @Test func aKilledBatchResumesWithOnlyWhatWasLeft() throws {
        let count = 6
        let (dir, manifest) = try corpus(count)
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["batch", manifest.path, "--jobs", "1"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let states = { (1...count).filter {
            FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/.b\($0).pdf.batch.json").path)
        } }
        let deadline = Date().addingTimeInterval(120)
        while states().count < 2 && p.isRunning && Date() < deadline { usleep(20_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let finished = states()
        try #require(finished.count >= 2 && finished.count < count, "killed after \(finished) of \(count)")

        let (r, summary, _) = try batch([manifest.path, "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try #require(summary)
        let skipped = s.jobs.filter { $0.status == "skipped" }.map(\.id)
        let done = s.jobs.filter { $0.status == "done" }.map(\.id)
        #expect(skipped == finished.map { "line \($0)" })
        #expect(Set(done) == Set((1...count).filter { !finished.contains($0) }.map { "line \($0)" }))
        #expect(s.failed == 0)

        // A third run has nothing left; changing one image brings exactly that book back.
        let (_, again, _) = try batch([manifest.path])
        #expect(again?.skipped == count)
        let image = dir.appendingPathComponent("books/b4/images/p03-owl.jpg")
        var bytes = try Data(contentsOf: image)
        bytes.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x04, 0x78, 0x79], at: 2) // a JPEG comment: same picture, new bytes
        try bytes.write(to: image)
        let (_, changed, _) = try batch([manifest.path])
        #expect(changed?.jobs.filter { $0.status == "done" }.map(\.id) == ["line 4"])
    }

    @Test func threeShardsTogetherRenderEveryJobOnce() throws {
        let count = 5
        let (dir, manifest) = try corpus(count)
        defer { try? FileManager.default.removeItem(at: dir) }
        var rendered: [String] = []
        for k in 1...3 {
            let (r, summary, _) = try batch([manifest.path, "--shard", "\(k)/3", "--jobs", "2"])
            #expect(r.status == 0, "\(r.stderr)")
            let s = try #require(summary)
            #expect(s.skipped == 0)
            rendered += s.jobs.filter { $0.status == "done" }.map(\.id)
        }
        #expect(rendered.sorted() == (1...count).map { "line \($0)" }.sorted())
        for i in 1...count { #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/b\(i).pdf").path)) }
        // The Kubernetes form picks the same shard as --shard.
        var env = ProcessInfo.processInfo.environment
        env["JOB_COMPLETION_INDEX"] = "1"
        let summaryURL = dir.appendingPathComponent("k8s.json")
        let r = try run(try Repository.binary.path, ["batch", manifest.path, "--shards", "3", "--summary", summaryURL.path], environment: env)
        #expect(r.status == 0)
        let s = try JSONDecoder().decode(Summary.self, from: Data(contentsOf: summaryURL))
        #expect(s.jobs.map(\.id) == ["line 2", "line 5"])
        #expect(s.skipped == 2)
    }
}
