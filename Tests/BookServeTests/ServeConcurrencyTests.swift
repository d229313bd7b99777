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
        let server = try ServeProcess(data: dir.appendingPathComponent("data"),
                                      arguments: ["--workers", "2", "--per-client", "1", "--provider-base-url", provider.baseURL],
                                      environment: ["OPENAI_API_KEY": "sk-test-key"])
        defer { _ = server.stop() }
        func submit(_ client: String, _ body: Data, _ query: String) async throws -> String {
            let reply = try await server.call(.POST, "/v1/jobs" + query, body: body, type: "application/json", client: client)
            #expect(reply.status == 202, "\(reply.errorMessage)")
            return try #require(reply.json["id"] as? String)
        }
        let slow = try JSONSerialization.data(withJSONObject: [
            "book": try JSONSerialization.jsonObject(with: bookToIllustrate(pages: 3, withHero: false)),
            "options": ["fillMissing": true, "provider": "openai", "png": false],
        ])
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
}
