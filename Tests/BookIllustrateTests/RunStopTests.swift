import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// Failures that no further call can mend end the run at once: a rejected key after one call, an
/// address that cannot be reached after a bounded number of tries, a rate limit longer than
/// `--max-wait` without waiting it out.
@Suite struct RunStopTests {
    func journal(_ dir: URL) throws -> JournalFile {
        try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: dir.appendingPathComponent("book.illustrate.json")))
    }

    /// Each provider's own rejection of a key: a server that rejects every call.
    @Test(arguments: [(ProviderName.openai, "OPENAI_API_KEY", "invalid_api_key"),
                      (ProviderName.gemini, "GEMINI_API_KEY", "API_KEY_INVALID"),
                      (ProviderName.openrouter, "OPENROUTER_API_KEY", "No auth credentials found")])
    func aRejectedKeyStopsTheRunAfterOneCall(_ provider: ProviderName, _ variable: String, _ reason: String) async throws {
        let openRouter401: [String: Any] = ["status": 401, "json": ["error": ["code": 401, "message": "No auth credentials found"]]]
        let server = try provider == .openrouter
            ? ProviderServer(["rules": [["contains": "", "responses": Array(repeating: openRouter401, count: 20)]]])
            : ProviderServer(["key": "a-different-key"])
        let dir = try temporaryDirectory("badkey")
        let url = try makeBook(pages: 4, in: dir)
        let lines = Lines()
        let error = await #expect(throws: IllustrateError.self) {
            try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache"),
                                                                    concurrency: 3, lines: lines))
        }
        #expect(try server.requests().count == 1)
        let message = error?.message ?? ""
        #expect(message.contains("\(provider.rawValue) rejected the key"), "\(message)")
        #expect(message.contains(reason), "\(message)")
        #expect(message.contains("check \(variable)"), "\(message)")
        #expect(!message.contains(testKey))
        let states = try journal(dir).pages.values.map(\.state)
        #expect(states.filter { $0 == .failed }.count == 1)
        #expect(states.filter { $0 == .pending }.count == 4)
        #expect(try loadBook(url).pages.allSatisfy { $0.picture?.image == nil })
    }

    /// A port nobody listens on: the run gives up after `connectionAttempts` tries in a row, however
    /// many pages and places there are, and says which address it could not reach.
    @Test func anUnreachableAddressEndsTheRunAfterBoundedAttempts() async throws {
        let closed = try ProviderServer()
        let address = closed.baseURL
        kill(closed.process.processIdentifier, SIGKILL)
        closed.process.waitUntilExit()
        let dir = try temporaryDirectory("unreachable")
        let url = try makeBook(pages: 6, in: dir)
        let lines = Lines()
        var opts = options(.openai, server: nil, cache: dir.appendingPathComponent("cache"), concurrency: 3, lines: lines)
        opts.provider = ProviderSettings(name: .openai, baseURL: address, apiKey: testKey, timeout: 10)
        opts.retry.connectionAttempts = 4
        let error = await #expect(throws: IllustrateError.self) {
            try await Illustrator.run(bookAt: url, options: opts)
        }
        let message = error?.message ?? ""
        #expect(message.contains("cannot reach openai at \(address)"), "\(message)")
        #expect(message.contains("4 connection attempt(s)"), "\(message)")
        // Every attempt is logged once as it happens: a retry line, or the failure of its page
        // (the summary's list of failures repeats the last).
        let attempts = lines.all.filter { $0.contains("cannot connect to") && !$0.hasPrefix("  failed:") }
        #expect(attempts.count == 4, "\(lines.text)")
        // None of them left this machine: no call was made.
        #expect(lines.text.contains("illustrate: 0 of 7 picture(s) ready; 0 call(s) made"), "\(lines.text)")
        let states = try journal(dir).pages.values.map(\.state)
        #expect(!states.contains(.ready))
        #expect(states.filter { $0 == .failed }.count == 1)
    }

    /// An https address whose server cannot be reached over TLS (it speaks plain HTTP, or its
    /// certificate is not trusted): one attempt, then the run ends naming the cause.
    @Test(arguments: [false, true])
    func anAddressThatFailsTLSEndsTheRunAfterOneAttempt(_ selfSigned: Bool) async throws {
        let server = try ProviderServer(selfSignedTLS: selfSigned)
        let address = "https://127.0.0.1:\(server.port)"
        let dir = try temporaryDirectory("tls")
        let url = try makeBook(pages: 4, in: dir)
        let lines = Lines()
        var opts = options(.openai, server: nil, cache: dir.appendingPathComponent("cache"), concurrency: 3, lines: lines)
        opts.provider = ProviderSettings(name: .openai, baseURL: address, apiKey: testKey, timeout: 10)
        let error = await #expect(throws: IllustrateError.self) {
            try await Illustrator.run(bookAt: url, options: opts)
        }
        let message = error?.message ?? ""
        let cause = selfSigned ? "its certificate is not one this machine trusts (CERTIFICATE_VERIFY_FAILED)"
                               : "the server does not speak TLS (WRONG_VERSION_NUMBER); a plain-HTTP server?"
        #expect(message.contains("cannot reach openai at \(address) over TLS (no TLS connection to \(address): \(cause))"), "\(message)")
        #expect(message.contains("no further picture was requested"), "\(message)")
        #expect(!lines.text.contains("retry 2 of"), "\(lines.text)")
        #expect(lines.text.contains("illustrate: 0 of 5 picture(s) ready; 0 call(s) made"), "\(lines.text)")
        #expect(try server.requests().isEmpty)
        let states = try journal(dir).pages.values.map(\.state)
        #expect(states.filter { $0 == .failed }.count == 1 && states.filter { $0 == .pending }.count == 4, "\(states)")
    }

    /// A provider asking for an hour or a day: the page is left for a later run at once, no other
    /// call goes out, and the run ends with what it made.
    @Test(.timeLimit(.minutes(1)), arguments: [ProviderName.openai, .gemini])
    func aLongRateLimitLeavesThePageForLater(_ provider: ProviderName) async throws {
        let response: [String: Any] = provider == .gemini
            ? ["status": 429, "json": ["error": ["code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED",
                                                  "details": [["@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "3600s"]]]]]
            : ["status": 429, "headers": ["Retry-After": "86400"],
               "json": ["error": ["message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"]]]
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": Array(repeating: response, count: 5)]]])
        let dir = try temporaryDirectory("longwait")
        let url = try makeBook(pages: 3, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache"),
                                                                                concurrency: 1, lines: lines))
        let requests = try server.requests().map { marker($0.prompt) }
        #expect(requests == ["cover", "01", "02"], "\(requests)")
        #expect(summary.failures.isEmpty)
        #expect(summary.ready == 2)
        #expect(summary.postponed.map(\.label) == ["page 2 of 3", "page 3 of 3"])
        let entries = try journal(dir).pages
        for key in ["p02", "p03"] {
            #expect(entries[key]?.state == .pending)
            #expect(entries[key]?.reason?.contains("rate limited until ") == true)
            #expect(entries[key]?.reason?.hasSuffix("; run again to resume") == true)
        }
        #expect(entries["p01"]?.state == .ready)
        #expect(lines.text.contains("2 left for a later run (rate limited until "), "\(lines.text)")
        #expect(!lines.text.contains("retry 2 of"))
        let book = try loadBook(url)
        #expect(book.pages[0].picture?.image != nil)
        #expect(book.pages[1].picture?.image == nil && book.pages[2].picture?.image == nil)
    }
}
