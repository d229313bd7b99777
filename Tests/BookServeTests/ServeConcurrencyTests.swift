import Foundation
import Testing
import BookTestSupport

/// Workers are shared among clients: one client's books wait for each other, not for another's.
@Suite(.serialized) struct ServeConcurrencyTests {
    @Test func aClientsSecondBookWaitsWhileAnotherClientsBookRuns() async throws {
        let dir = try temporaryDirectory("serve-clients")
        defer { try? FileManager.default.removeItem(at: dir) }
        // shop-a's first book waits on its pictures until released.
        let provider = try LoopbackProvider(latency: 0.1, holdAfter: 0)
        defer { provider.stop() }
        let server = try Self.server(in: dir, provider: provider, ["--workers", "2", "--per-client", "1"])
        defer { _ = server.stop() }
        func submit(_ client: String, _ body: Data, _ query: String) async throws -> String {
            let reply = try await server.call(.POST, "/v1/jobs" + query, body: body, type: "application/json", client: client)
            #expect(reply.status == 202, "\(reply.errorMessage)")
            return try #require(reply.json["id"] as? String)
        }
        let slow = try Self.bookToFill(pages: 3)
        let quick = try inlined(Repository.samples.appendingPathComponent("memoir/book.json"))
        let a1 = try await submit("shop-a", slow, "")
        let a2 = try await submit("shop-a", quick, "?png=false")
        let b1 = try await submit("shop-b", quick, "?png=false")
        let deadline = Date().addingTimeInterval(600)
        var sb: String?
        repeat {
            try await Task.sleep(nanoseconds: 100_000_000)
            let s1 = try await server.call(.GET, "/v1/jobs/\(a1)").json["state"] as? String
            let s2 = try await server.call(.GET, "/v1/jobs/\(a2)").json["state"] as? String
            sb = try await server.call(.GET, "/v1/jobs/\(b1)").json["state"] as? String
            #expect(s1 == "running" || s1 == "queued")
            #expect(s2 == "queued", "shop-a's second book started while its first was running")
        } while sb != "done" && Date() < deadline
        #expect(sb == "done", "shop-b's book waited behind shop-a's")
        try provider.hold(after: nil)
        for id in [a1, a2, b1] { #expect(try await server.wait(id)["state"] as? String == "done") }
    }

    @Test func twoWorkersRenderTwoBooksOfOneClientAtOnce() async throws {
        let dir = try temporaryDirectory("serve-workers")
        defer { try? FileManager.default.removeItem(at: dir) }
        // No picture is answered: each job stays running until it is cancelled.
        let provider = try LoopbackProvider(latency: 0.1, holdAfter: 0)
        defer { provider.stop() }
        let server = try Self.server(in: dir, provider: provider, ["--workers", "2"])
        defer { _ = server.stop() }
        let body = try Self.bookToFill(pages: 2)
        let first = try await server.submit(body, type: "application/json")
        let second = try await server.submit(body, type: "application/json")
        var states: [String?] = []
        let deadline = Date().addingTimeInterval(120)
        repeat {
            try await Task.sleep(nanoseconds: 100_000_000)
            states = [try await server.call(.GET, "/v1/jobs/\(first)").json["state"] as? String,
                      try await server.call(.GET, "/v1/jobs/\(second)").json["state"] as? String]
        } while states != ["running", "running"] && Date() < deadline
        #expect(states == ["running", "running"], "one client's two books did not run side by side on two workers: \(states)")
        let metrics = String(decoding: try await server.call(.GET, "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("bookrender_serve_workers_busy 2"), "\(metrics)")
        for id in [first, second] { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
        // A cancelled run finishes the calls it has paid for: the held ones are answered now,
        // rather than at the end of the client's time-out.
        try provider.hold(after: nil)
        for id in [first, second] { #expect(try await server.wait(id)["state"] as? String == "cancelled") }
    }

    @Test func aJobPastItsTimeLimitIsStoppedAndTheLimitIsThereByDefault() async throws {
        let metrics = String(decoding: try await SharedServe.server.call(.GET, "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("bookrender_serve_job_timeout_seconds 900"), "no default job time limit: \(metrics)")

        let dir = try temporaryDirectory("serve-timeout")
        defer { try? FileManager.default.removeItem(at: dir) }
        let provider = try LoopbackProvider(latency: 0.1, holdAfter: 0)
        defer { provider.stop() }
        let server = try Self.server(in: dir, provider: provider, ["--job-timeout", "1"])
        defer { _ = server.stop() }
        let body = try Self.bookToFill(pages: 2)
        let id = try await server.submit(body, type: "application/json")
        let end = try await server.wait(id, timeout: 120)
        let error = end["error"] as? [String: Any] ?? [:]
        #expect(end["state"] as? String == "failed" && error["code"] as? String == "timedOut", "\(end)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("1 s"), "\(message)")
        expectNoServerDetail(message, server)
    }

    /// An export killed by something outside the service (the system out of memory kills with
    /// SIGKILL) fails as stopped, not as a crash of the program, and says what likely happened.
    @Test func anExportKilledFromOutsideFailsAsStopped() async throws {
        let dir = try temporaryDirectory("serve-killed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let provider = try LoopbackProvider(latency: 0.1, holdAfter: 0)
        defer { provider.stop() }
        let server = try Self.server(in: dir, provider: provider, [])
        defer { _ = server.stop() }
        let body = try Self.bookToFill(pages: 2)
        let id = try await server.submit(body, type: "application/json")
        // The export waits on the provider, which holds every call: it is the service's child.
        let deadline = Date().addingTimeInterval(60)
        var child: pid_t?
        while child == nil, Date() < deadline {
            child = Self.children(of: server.process.processIdentifier).first
            if child == nil { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        let export = try #require(child, "the service started no export")
        kill(export, SIGKILL)
        let end = try await server.wait(id, timeout: 120)
        let error = end["error"] as? [String: Any] ?? [:]
        #expect(end["state"] as? String == "failed" && error["code"] as? String == "stopped", "\(end)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("SIGKILL") && message.contains("memory") && !message.contains("crashed"), "\(message)")
        expectNoServerDetail(message, server)
    }

    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// A service of its own in `dir` whose pictures come from `provider`, with `arguments`.
    static func server(in dir: URL, provider: LoopbackProvider, _ arguments: [String]) throws -> ServeProcess {
        try ServeProcess(data: dir.appendingPathComponent("data"), arguments: arguments + ["--provider-base-url", provider.baseURL],
                         environment: ["OPENAI_API_KEY": "sk-test-key"])
    }

    /// A job's body: a book of `pages` pages whose pictures the job makes (`fillMissing`), no PNGs.
    static func bookToFill(pages: Int) throws -> Data {
        try JSONSerialization.data(withJSONObject: [
            "book": try JSONSerialization.jsonObject(with: bookToIllustrate(pages: pages, withHero: false)),
            "options": ["fillMissing": true, "provider": "openai", "png": false],
        ])
    }
}
