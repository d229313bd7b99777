import Foundation
import Testing
import BookRenderKit
import BookTestSupport

/// A service killed mid-job finishes the job when it starts again, paying for no picture twice.
@Suite(.serialized) struct ServeRestartTests {
    @Test func aJobSurvivesSIGKILLAndNoPictureIsRequestedTwice() async throws {
        let dir = try temporaryDirectory("serve-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two pictures are answered; the calls after them wait, so the kill finds the job midway.
        let provider = try LoopbackProvider(latency: 0.1, holdAfter: 2)
        defer { provider.stop() }
        let data = dir.appendingPathComponent("data")
        let arguments = ["--provider-base-url", provider.baseURL]
        let environment = ["OPENAI_API_KEY": "sk-test-key", "BOOKRENDER_RETRY_BASE": "0.05"]
        let zip = dir.appendingPathComponent("zip/book.zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        let pages = 6
        try TestZip.make([("book.json", bookToIllustrate(pages: pages)),
                          ("images/hero.png", try Data(contentsOf: Repository.samples.appendingPathComponent("storybook/images/pip.png")))],
                         at: zip)

        var server = try ServeProcess(data: data, arguments: arguments, environment: environment)
        let id = try await server.submit(try Data(contentsOf: zip), type: "application/zip",
                                         query: "?fillMissing=true&provider=openai&resolution=preview&png=false")
        // Killed once the two answered pictures are in the journal.
        let deadline = Date().addingTimeInterval(600)
        var midwayReply = try await server.call(.GET, "/v1/jobs/\(id)")
        while Date() < deadline {
            let pictures = midwayReply.json["pictures"] as? [[String: Any]] ?? []
            if pictures.filter({ $0["state"] as? String == "ready" }).count >= 2 { break }
            try await Task.sleep(nanoseconds: 100_000_000)
            midwayReply = try await server.call(.GET, "/v1/jobs/\(id)")
        }
        server.killHard()
        let midway = midwayReply.json
        try expectMatchesOpenAPI(midwayReply.body, "JobStatus")
        #expect(midway["state"] as? String == "running")

        let book = data.appendingPathComponent("jobs/\(id)/input/book.json")
        let atKill = try Illustration.status(bookAt: book)
        let readyAtKill = atKill.pictures.filter { $0.state == "ready" }.count
        #expect(readyAtKill == 2 && readyAtKill < atKill.pictures.count, "\(atKill.counts)")

        try provider.hold(after: nil)
        let restart = Date().timeIntervalSince1970
        server = try ServeProcess(data: data, arguments: arguments, environment: environment)
        defer { _ = server.stop() }
        let end = try await server.wait(id)
        #expect(end["state"] as? String == "done", "\(end)")
        #expect(end["attempts"] as? Int == 2)
        let after = try provider.requests().filter { $0.arrival >= restart }.map(\.prompt)
        let final = try Illustration.status(bookAt: book)
        #expect(final.pictures.allSatisfy { $0.state == "ready" }, "\(final.counts)")
        // After the restart, only the pictures not made before the kill are asked for, each once.
        #expect(after.count == final.pictures.count - readyAtKill, "\(after)")
        #expect(Set(after).count == after.count, "a picture was asked for twice after the restart: \(after)")

        let pdf = try await server.call(.GET, "/v1/jobs/\(id)/pdf")
        #expect(pdf.status == 200 && pdf.body.starts(with: Array("%PDF".utf8)))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("jobs/\(id)/out").path)
            .filter { $0.contains("partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func sigtermCheckpointsARunningJobAndExitsCleanly() async throws {
        let dir = try temporaryDirectory("serve-sigterm")
        defer { try? FileManager.default.removeItem(at: dir) }
        // No call is answered: the job is running, and stays so, when SIGTERM comes.
        let provider = try LoopbackProvider(latency: 0.1, holdAfter: 0)
        defer { provider.stop() }
        let data = dir.appendingPathComponent("data")
        let arguments = ["--provider-base-url", provider.baseURL, "--grace", "0"]
        let environment = ["OPENAI_API_KEY": "sk-test-key"]
        var server = try ServeProcess(data: data, arguments: arguments, environment: environment)
        let body = try JSONSerialization.data(withJSONObject: [
            "book": try JSONSerialization.jsonObject(with: bookToIllustrate(pages: 3, withHero: false)),
            "options": ["fillMissing": true, "provider": "openai", "png": false],
        ])
        let id = try await server.submit(body, type: "application/json")
        let deadline = Date().addingTimeInterval(120)
        while try await server.call(.GET, "/v1/jobs/\(id)").json["state"] as? String != "running", Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(server.stop() == 0, "SIGTERM ends the service with status 0")
        // What an export killed with its service leaves: temporaries beside its outputs, named
        // with its PID, and scratch in its temporary folder.
        let dead = try deadProcess()
        let job = data.appendingPathComponent("jobs/\(id)")
        let leftovers = [job.appendingPathComponent("out/.book.pdf.partial-\(dead)-1"),
                         job.appendingPathComponent("out/pages/.pages.partial-\(dead)-2/page-1.png"),
                         job.appendingPathComponent("preview/.page-1.pdf.partial-\(dead)-3"),
                         job.appendingPathComponent("tmp/bookrender-\(dead)-scratch-4/part")]
        for file in leftovers {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("left".utf8).write(to: file)
        }
        try provider.hold(after: nil)
        server = try ServeProcess(data: data, arguments: arguments, environment: environment)
        defer { _ = server.stop() }
        let end = try await server.wait(id)
        #expect(end["state"] as? String == "done", "the checkpointed job runs again after the restart: \(end)")
        #expect(end["attempts"] as? Int == 2, "\(end)")
        for file in leftovers {
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.path) is left after the restart")
        }
        let staging = job.appendingPathComponent("out/pages/.pages.partial-\(dead)-2")
        #expect(!FileManager.default.fileExists(atPath: staging.path))
    }
}

/// A storybook with `pages` pictures to make ("SCENE-01"…), and its main character's picture beside it.
func bookToIllustrate(pages: Int, withHero: Bool = true) -> Data {
    var main: [String: Any] = ["name": "Tam", "description": "a small otter in a yellow raincoat"]
    if withHero { main["image"] = "images/hero.png" }
    let book: [String: Any] = [
        "schema": 1, "kind": "storybook", "title": "Tam and the Tide", "artStyle": "Kid's Book",
        "cover": ["title": "Tam and the Tide", "accent": "#E07A2F"],
        "characters": ["main": main],
        "pages": (1...pages).map { i in
            ["type": "illustration", "id": String(format: "p%02d", i), "text": "Page \(i) text.",
             "scene": String(format: "SCENE-%02d Tam by the sea, moment %d.", i, i)]
        },
    ]
    return try! JSONSerialization.data(withJSONObject: book, options: [.sortedKeys])
}

/// bench/illustrate-provider-server.py: a loopback stand-in for the image APIs that logs every request.
final class LoopbackProvider: @unchecked Sendable {
    let process = Process()
    let folder: URL
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    let log: URL
    let control: URL

    init(latency: Double, holdAfter: Int? = nil) throws {
        folder = try temporaryDirectory("serve-provider")
        log = folder.appendingPathComponent("requests.jsonl")
        let control = folder.appendingPathComponent("control.json")
        self.control = control
        try JSONSerialization.data(withJSONObject: Self.control(latency: latency, holdAfter: holdAfter)).write(to: control)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        port = try LoopbackProviderProcess.start(process, control: control, log: log)
    }

    static func control(latency: Double, holdAfter: Int?) -> [String: Any] {
        var c: [String: Any] = ["latency": latency, "key": "sk-test-key"]
        if let holdAfter { c["hold_after"] = holdAfter }
        return c
    }

    /// Calls after the first `holdAfter` wait unanswered until `release()`; none with nil.
    func hold(after n: Int?, latency: Double = 0.1) throws {
        try JSONSerialization.data(withJSONObject: Self.control(latency: latency, holdAfter: n)).write(to: control, options: .atomic)
    }

    /// The prompts answered, in the order the answers were sent, with when each call arrived.
    func requests() throws -> [(prompt: String, arrival: Double)] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let prompt = o["prompt"] as? String, let arrival = o["arrival"] as? Double else { return nil }
            return (prompt, arrival)
        }
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The PID of a process that has ended, as a killed export's is once the service restarts.
func deadProcess() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    return p.processIdentifier
}
