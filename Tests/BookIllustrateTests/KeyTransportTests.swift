import Foundation
import Testing
@testable import BookIllustrate
import BookHTTP
import BookTestSupport

/// A key goes over TLS or to this machine, only to the configured origin, and never into a message.
@Suite struct KeyTransportTests {
    @Test(arguments: [
        ("https://api.openai.com", true), ("https://generativelanguage.googleapis.com:443", true),
        ("http://127.0.0.1:8080", true), ("http://127.8.9.10", true), ("http://localhost:9", true), ("http://[::1]:9", true),
        ("http://api.openai.com", false), ("http://10.0.0.5:8080", false), ("http://203.0.113.5", false),
        ("http://127.0.0.1.example.com", false), ("http://localhost.example.com", false), ("http://[::2]", false),
    ])
    func plainHTTPCarriesAKeyOnlyToThisMachine(_ address: String, _ allowed: Bool) throws {
        let parsed = try #require(URL(string: address))
        let origin = try #require(Origin(parsed))
        #expect(origin.mayCarryKey == allowed, "\(address)")
    }

    @Test func aPlainHTTPAddressElsewhereStopsTheRunBeforeAnyCall() async throws {
        let dir = try temporaryDirectory("plain-http")
        let url = try makeBook(pages: 2, in: dir)
        let before = try Data(contentsOf: url)
        var opts = options(.openai, server: nil, cache: dir.appendingPathComponent("cache"))
        opts.provider = ProviderSettings(name: .openai, baseURL: "http://203.0.113.5:9", apiKey: testKey, timeout: 2)
        let error = await #expect(throws: IllustrateError.self) { _ = try await Illustrator.run(bookAt: url, options: opts) }
        #expect(error?.kind == .invalidOptions)
        #expect(error?.message.contains("https") == true, "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("book.illustrate.json").path), "no journal: nothing started")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func theCommandLineSaysSoWithTheUsageExitCode() throws {
        let dir = try temporaryDirectory("plain-http-cli")
        let url = try makeBook(pages: 1, in: dir)
        var env = ProcessInfo.processInfo.environment
        env["OPENAI_API_KEY"] = testKey
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai", "--base-url", "http://203.0.113.5:9",
                                                 "--cache", dir.appendingPathComponent("cache").path], environment: env)
        #expect(r.status == 64, "\(r.status): \(r.stderr)")
        #expect(r.stderr.contains("https"), "\(r.stderr)")
        #expect(!r.stderr.contains(testKey))
    }

    static let redirects: [(ProviderName, Int)] = [ProviderName.openai, .gemini, .openrouter].flatMap { p in [301, 302, 303, 307, 308].map { (p, $0) } }

    /// Whatever the provider and the kind of redirect, the other origin receives nothing: not the
    /// request, not the key in its header.
    @Test(arguments: redirects)
    func aRedirectToAnotherOriginIsNotFollowed(_ provider: ProviderName, _ status: Int) async throws {
        let elsewhere = try ProviderServer()
        let path = ["openai": "/v1/images/edits", "gemini": "/v1beta/models/m:generateContent", "openrouter": "/v1/chat/completions"][provider.rawValue]!
        let redirect: [String: Any] = ["status": status, "headers": ["Location": elsewhere.baseURL + path]]
        let server = try ProviderServer(["key": testKey, "rules": [["contains": "", "responses": Array(repeating: redirect, count: 20)]]])
        let dir = try temporaryDirectory("redirect")
        let url = try makeBook(pages: 1, in: dir, characterImage: true)
        // Every picture fails, so the run does too.
        let error = await #expect(throws: IllustrateError.self) {
            try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache")))
        }
        #expect(try server.requests().contains { $0.status == status }, "the configured server was asked")
        let received = try elsewhere.requests()
        #expect(received.isEmpty, "the other origin received \(received.map(\.headers))")
        #expect(error?.message.contains("no picture was made") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("redirected to \(elsewhere.baseURL)") == true, "\(error?.message ?? "")")
    }

    @Test func aRedirectWithinTheOriginIsFollowed() async throws {
        let server = try ProviderServer(["key": testKey])
        try server.script(["key": testKey, "rules": [["contains": "", "responses": [
            ["status": 308, "headers": ["Location": "/v1/images/generations?moved=1"]]]]]])
        let dir = try temporaryDirectory("redirect-same")
        let url = try makeBook(pages: 1, in: dir)
        let summary = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache"), concurrency: 1))
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        #expect(summary.ready == summary.needed)
        let requests = try server.requests()
        #expect(requests.contains { $0.path.contains("moved=1") && $0.headers["authorization"] == "Bearer \(testKey)" }, "\(requests.map(\.path))")
    }

    static let key = "sk-proj-Zq8rT2mWx4Lk9Vb7Nc3Hd6Jf"

    @Test func theKeyIsRedactedWholeAroundAMaskAndInsideBase64() {
        let k = Self.key
        #expect(redact("Incorrect API key provided: \(k).", key: k) == "Incorrect API key provided: [key].")
        let masked = "Incorrect API key provided: \(k.prefix(8))**********\(k.suffix(4))."
        let maskedOut = redact(masked, key: k)
        #expect(!maskedOut.contains(String(k.suffix(4))), "\(maskedOut)")
        #expect(!maskedOut.contains(String(k.prefix(8))), "\(maskedOut)")
        #expect(redact("key ...\(k.suffix(6))", key: k) == "key ...[key]")
        // The key inside base64 at each of the three alignments a byte stream can give it.
        for lead in ["", "a", "ab", "Authorization: Bearer "] {
            let echoed = Data((lead + k + "\r\n").utf8).base64EncodedString()
            let out = redact("echo: \(echoed)", key: k)
            #expect(out.contains("[key]"), "\(lead.count): \(out)")
            let decoded = Data(base64Encoded: String(out.dropFirst(6)).replacingOccurrences(of: "[key]", with: "")) ?? Data()
            #expect(decoded.range(of: Data(k.utf8)) == nil)
            // No eight consecutive key characters survive in what is left.
            let left = out.replacingOccurrences(of: "[key]", with: " ")
            #expect(!left.contains(Data(k.utf8).base64EncodedString().dropFirst(4).prefix(12)), "\(out)")
        }
        #expect(!redact("url: https://x/?key=\(k.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)", key: k).contains("Zq8rT2mWx4"))
        // Ordinary words stay.
        #expect(redact("page 2 of 3: HTTP 401 invalid_api_key", key: k) == "page 2 of 3: HTTP 401 invalid_api_key")
    }

    @Test(arguments: ["masked", "base64"])
    func anEchoedKeyInAnyFormReachesNoOutputOrFile(_ form: String) throws {
        let server = try ProviderServer(["rules": [["contains": "SCENE-01", "responses": [["kind": "echo_key", "status": 401, "form": form]]]]])
        let dir = try temporaryDirectory("echo-\(form)")
        let url = try makeBook(pages: 1, in: dir)
        var env = ProcessInfo.processInfo.environment
        env["OPENAI_API_KEY"] = Self.key
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL,
                                                 "--cache", dir.appendingPathComponent("cache").path], environment: env)
        #expect(r.stderr.contains("Incorrect API key provided: "), "\(r.stderr)")
        let fragments = [String(Self.key.prefix(8)), String(Self.key.suffix(4)), Self.key,
                         String(Data(("Authorization: Bearer " + Self.key).utf8).base64EncodedString().dropFirst(32).prefix(16))]
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
        let texts = [r.stdout, r.stderr] + files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
        for fragment in fragments {
            #expect(!texts.contains { $0.contains(fragment) }, "\(fragment) in \(r.stderr)")
        }
    }
}
