import Foundation
import Testing
@testable import BookIllustrate
import BookHTTP
import BookTestSupport

/// The providers' HTTP goes through async-http-client; these check the client itself against the
/// loopback server and a closed port.
@Suite struct HTTPClientTests {
    func openAIRequest(_ server: ProviderServer, prompt: String) throws -> HTTPRequest {
        var request = HTTPRequest(url: try #require(URL(string: server.baseURL + "/v1/images/generations")))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: ["model": "gpt-image-1", "prompt": prompt])
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(testKey)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// A large body goes out whole and at once: no "Expect: 100-continue" that would hold it back
    /// until a server answers it.
    @Test func aLargeBodyIsSentWholeWithoutWaitingForContinue() async throws {
        let server = try ProviderServer(["key": testKey])
        let prompt = String(repeating: "A lighthouse on a quiet shore. ", count: 70_000)
        let response = try await HTTPClient(timeout: 10).send(try openAIRequest(server, prompt: prompt))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json", "header names lower-cased: \(response.headers.keys)")
        let root = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect((root?["data"] as? [[String: Any]])?.first?["b64_json"] != nil)
        // The server logs a request once its answer is out.
        var logged = try server.requests()
        for _ in 0..<50 where logged.isEmpty {
            try await Task.sleep(nanoseconds: 100_000_000)
            logged = try server.requests()
        }
        let received = try #require(logged.first)
        #expect(received.prompt == prompt, "the server got \(received.prompt.utf8.count) of \(prompt.utf8.count) bytes")
        #expect(received.headers["expect"] == nil)
        #expect(received.headers["authorization"] == "Bearer \(testKey)")
    }

    @Test func aServerThatDoesNotAnswerInTimeIsARetryableTimeout() async throws {
        let server = try ProviderServer(["key": testKey, "latency": 5])
        let failure = await #expect(throws: ProviderFailure.self) {
            _ = try await HTTPClient(timeout: 1).send(try openAIRequest(server, prompt: "slow"))
        }
        #expect(failure?.kind == .retryable)
        #expect(failure?.reason == "timed out after 1 s")
    }

    /// https to a server that speaks plain HTTP: the handshake fails, and the failure says so.
    @Test func aFailedTLSHandshakeIsNotARetryableError() async throws {
        let server = try ProviderServer()
        let request = HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:\(server.port)/v1/images/generations")))
        let failure = await #expect(throws: ProviderFailure.self) { _ = try await HTTPClient(timeout: 5).send(request) }
        #expect(failure?.kind.rawValue == "tlsFailed", "\(failure?.kind.rawValue ?? ""): \(failure?.reason ?? "")")
        #expect(failure?.isRetryable == false && failure?.sent == false)
        #expect(failure?.reason.hasPrefix("no TLS connection to https://127.0.0.1:\(server.port): ") == true, "\(failure?.reason ?? "")")
    }

    @Test func aClosedPortIsAnUnreachableAddress() async throws {
        // A port that was just free: bind, note it, close.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        close(fd)
        let port = UInt16(bigEndian: address.sin_port)
        let request = HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/images/generations")))
        let failure = await #expect(throws: ProviderFailure.self) { _ = try await HTTPClient(timeout: 5).send(request) }
        #expect(failure?.kind == .unreachable)
        #expect(failure?.isRetryable == true)
        #expect(failure?.reason.hasPrefix("cannot connect to http://127.0.0.1:\(port): ") == true, "\(failure?.reason ?? "")")
        #expect(failure?.reason.localizedCaseInsensitiveContains("refused") == true, "\(failure?.reason ?? "")")
    }
}
