import Foundation
import Testing
import BookTestSupport

/// What a service that cannot order answers: a job not done is not ready, and a service started
/// without Lulu's keys says ordering is off (for orders and for webhooks) instead of trying.
@Suite struct ServeOrderRefusalTests {
    func order(_ server: ServeProcess, _ id: String) async throws -> ServeProcess.Reply {
        try await server.call(.POST, "/v1/jobs/\(id)/order", body: try json(["shipTo": ServeOrderTests.shipTo]), type: "application/json")
    }

    @Test func aJobThatIsNotDoneIsNotOrdered() async throws {
        let server = try SharedServe.server
        // Lulu prints 32 pages at least: preflight fails the tiny book.
        let id = try await server.submit(try json(tinyBook()), type: "application/json", query: "?profile=lulu&png=false")
        let status = try await server.wait(id)
        #expect(status["state"] as? String == "failed", "\(status)")
        let reply = try await order(server, id)
        #expect(reply.status == 409 && reply.errorCode == "notReady" && reply.errorMessage.contains("failed"), "\(reply.status) \(reply.errorMessage)")
    }

    @Test func aServiceWithoutLulusKeysSaysOrderingIsOff() async throws {
        let server = try SharedServe.server
        let id = try await server.submit(try json(tinyBook()), type: "application/json", query: "?profile=lulu&force=true&png=false")
        let status = try await server.wait(id)
        #expect(status["state"] as? String == "done", "\(status)")
        let reply = try await order(server, id)
        #expect(reply.status == 503 && reply.errorCode == "orderingOff", "\(reply.status) \(reply.errorMessage)")
        let webhook = try await server.call(.POST, "/v1/lulu/webhook", body: try json(["topic": "PRINT_JOB_STATUS_CHANGED", "data": ["id": 1001]]),
                                            type: "application/json")
        #expect(webhook.status == 503 && webhook.errorCode == "orderingOff", "\(webhook.status) \(webhook.errorMessage)")
    }
}
