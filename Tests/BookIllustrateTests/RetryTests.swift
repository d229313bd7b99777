import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// Retryable failures are retried after the delay the provider asked for.
@Suite struct RetryTests {
    /// `asked` is the delay the provider's answer names, in seconds.
    func retried(_ provider: ProviderName, _ responses: [[String: Any]], asked: Double) async throws {
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": responses]]])
        let dir = try temporaryDirectory("retry")
        let url = try makeBook(pages: 2, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache"), lines: lines))
        #expect(summary.failures.isEmpty)
        let page2 = try server.requests().filter { marker($0.prompt) == "02" }
        #expect(page2.count == responses.count + 1)
        // Each retry waits the delay the provider asked for, with at most a quarter second of
        // jitter on top (the log gives it to the hundredth).
        let retries = lines.all.compactMap { line -> (attempt: Int, delay: Double)? in
            guard line.contains("page 2 of 2"), let m = line.firstMatch(of: /retry (\d+) of 5 in ([0-9.]+) s/) else { return nil }
            return (Int(m.1)!, Double(m.2)!)
        }
        #expect(retries.map(\.attempt) == Array(2...(responses.count + 1)), "\(lines.text)")
        for r in retries {
            #expect(r.delay >= asked - 0.005 && r.delay <= asked + 0.255, "retry \(r.attempt) waited \(r.delay) s, asked for \(asked)")
        }
        #expect(try loadBook(url).pages[1].picture?.image != nil)
    }

    @Test func openAIRetryAfterMs() async throws {
        try await retried(.openai, [["status": 429, "headers": ["retry-after-ms": "400", "retry-after": "30"],
                                     "json": ["error": ["message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"]]]],
                          asked: 0.4)
    }

    @Test func openRouterRetryAfterSeconds() async throws {
        try await retried(.openrouter, [["status": 429, "headers": ["Retry-After": "1"],
                                         "json": ["error": ["code": 429, "message": "Rate limit exceeded"]]]], asked: 1)
    }

    @Test func geminiRetryDelay() async throws {
        let body: [String: Any] = ["error": ["code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED",
                                             "details": [["@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.5s"]]]]
        try await retried(.gemini, [["status": 429, "json": body], ["status": 429, "json": body]], asked: 0.5)
    }

    /// A 200 whose body is the provider's `server_error` is asked again, by every provider, and the
    /// picture of the second answer is the page's; the provider's message is in the log.
    @Test(arguments: [ProviderName.openai, .gemini, .openrouter])
    func aServerErrorInA200IsAskedAgain(_ provider: ProviderName) async throws {
        let error: [String: Any] = ["status": 200, "json": ["error": ["message": "The engine stalled ERR-200", "type": "server_error"]]]
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [error]]]])
        let dir = try temporaryDirectory("retry-200")
        let url = try makeBook(pages: 2, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache"), lines: lines))
        #expect(summary.failures.isEmpty, "\(lines.text)")
        #expect(try server.requests().filter { marker($0.prompt) == "02" }.count == 2)
        #expect(lines.text.contains("The engine stalled ERR-200"), "\(lines.text)")
        #expect(try loadBook(url).pages[1].picture?.image != nil)
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
