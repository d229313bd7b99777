import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// Retryable failures are retried after the delay the provider asked for.
@Suite struct RetryTests {
    func retried(_ provider: ProviderName, _ responses: [[String: Any]], minimumGap: Double) async throws {
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": responses]]])
        let dir = try temporaryDirectory("retry")
        let url = try makeBook(pages: 2, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache"), lines: lines))
        #expect(summary.failures.isEmpty)
        let page2 = try server.requests().filter { marker($0.prompt) == "02" }
        #expect(page2.count == responses.count + 1)
        for (a, b) in zip(page2, page2.dropFirst()) {
            // The gap from the answer to the next try; 20 ms of slack for clocks and scheduling.
            #expect(b.arrival - a.finish >= minimumGap - 0.02, "retried after \(b.arrival - a.finish) s, asked for \(minimumGap)")
        }
        #expect(try loadBook(url).pages[1].picture?.image != nil)
        #expect(lines.text.contains("retry 2 of 5"))
    }

    @Test func openAIRetryAfterMs() async throws {
        try await retried(.openai, [["status": 429, "headers": ["retry-after-ms": "400", "retry-after": "30"],
                                     "json": ["error": ["message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"]]]],
                          minimumGap: 0.4)
    }

    @Test func openRouterRetryAfterSeconds() async throws {
        try await retried(.openrouter, [["status": 429, "headers": ["Retry-After": "1"],
                                         "json": ["error": ["code": 429, "message": "Rate limit exceeded"]]]], minimumGap: 1)
    }

    @Test func geminiRetryDelay() async throws {
        let body: [String: Any] = ["error": ["code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED",
                                             "details": [["@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.5s"]]]]
        try await retried(.gemini, [["status": 429, "json": body], ["status": 429, "json": body]], minimumGap: 0.5)
    }

    @Test func serverErrorsBackOffAndGiveUpAfterFiveAttempts() async throws {
        let error: [String: Any] = ["status": 503, "json": ["error": ["code": 503, "message": "The model is overloaded", "status": "UNAVAILABLE"]]]
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": Array(repeating: error, count: 6)]]])
        let dir = try temporaryDirectory("retry5")
        let url = try makeBook(pages: 3, in: dir)
        let summary = try await Illustrator.run(bookAt: url, options: options(.gemini, server: server, cache: dir.appendingPathComponent("cache")))
        let page2 = try server.requests().filter { marker($0.prompt) == "02" }
        #expect(page2.count == 5)
        #expect(summary.failures.count == 1)
        #expect(summary.failures.first?.reason.contains("UNAVAILABLE") == true)
        #expect(summary.failures.first?.reason.contains("gave up after 5 attempts") == true)
        let book = try loadBook(url)
        #expect(book.pages[1].picture?.image == nil)
        #expect(book.pages[2].picture?.image != nil)
    }
}
