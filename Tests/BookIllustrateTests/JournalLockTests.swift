import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// Two runs on one book never pay twice for a picture: the second waits for the first, or says who holds the book.
@Suite struct JournalLockTests {
    func environment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["http_proxy"] = nil; env["https_proxy"] = nil; env["HTTP_PROXY"] = nil; env["HTTPS_PROXY"] = nil
        env["OPENAI_API_KEY"] = testKey
        return env
    }

    @Test func twoRunsAtOnceAskForEachPictureOnce() throws {
        let server = try ProviderServer(["latency": 0.5])
        let dir = try temporaryDirectory("lock-two")
        let url = try makeBook(pages: 4, in: dir)
        var runs: [(Process, URL)] = []
        for i in 1...2 {
            let p = Process()
            p.executableURL = try Repository.binary
            // A cache each: only the lock can spare the second run its calls.
            p.arguments = ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL, "--concurrency", "2",
                           "--lock-wait", "120", "--cache", dir.appendingPathComponent("cache-\(i)").path]
            p.environment = environment()
            let err = dir.appendingPathComponent("stderr-\(i).txt")
            FileManager.default.createFile(atPath: err.path, contents: nil)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = try FileHandle(forWritingTo: err)
            runs.append((p, err))
        }
        for (p, _) in runs { try p.run() }
        for (p, _) in runs { try p.waitForExit(within: 600, "an illustrate run") }
        let stderr = try runs.map { try String(contentsOf: $0.1, encoding: .utf8) }
        for (i, (p, _)) in runs.enumerated() { #expect(p.terminationStatus == 0, "\(stderr[i])") }
        let calls = try server.requests().map { marker($0.prompt) }
        #expect(calls.sorted() == ["01", "02", "03", "04", "cover"], "\(calls)\n\(stderr.joined(separator: "\n"))")
        #expect(stderr.filter { $0.contains("book.illustrate.lock is locked by") }.count == 1, "\(stderr)")
        #expect(try loadBook(url).pages.allSatisfy { $0.picture?.image != nil })
    }

    @Test func aRunThatMustNotWaitNamesTheLockAndItsHolder() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("lock-held")
        let url = try makeBook(pages: 2, in: dir)
        let journal = dir.appendingPathComponent("book.illustrate.json")
        let held = try await JournalLock.acquire(journal: journal, wait: 0, log: { _ in })
        var opts = options(.openai, server: server, cache: dir.appendingPathComponent("cache"))
        opts.lockWait = 0
        await #expect {
            try await Illustrator.run(bookAt: url, options: opts)
        } throws: { error in
            let text = "\(error)"
            return text.contains(dir.appendingPathComponent("book.illustrate.lock").path) && text.contains("process \(getpid())")
        }
        #expect(try server.requests().isEmpty)
        held.lock.release()
        let summary = try await Illustrator.run(bookAt: url, options: opts)
        #expect(summary.ready == 3)
    }
}
