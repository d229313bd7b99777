import Foundation
import Synchronization
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A request as the providers build it.
struct HTTPRequest: Sendable {
    var url: URL
    var httpMethod = "GET"
    var httpBody: Data?
    private(set) var headers: [(name: String, value: String)] = []

    init(url: URL) { self.url = url }

    mutating func setValue(_ value: String, forHTTPHeaderField name: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }
}

/// One HTTP exchange, with transport failures turned into `ProviderFailure`s.
struct HTTPResponse: Sendable {
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: Data
}

/// HTTP through async-http-client (SwiftNIO, TLS from BoringSSL inside it): pure Swift, so a
/// process that never calls a provider (every export) loads no HTTP or TLS library at start-up.
/// One client for the process, as async-http-client wants; requests run side by side on its event
/// loops as the job runner asks.
final class HTTPClient: Sendable {
    let timeout: Double

    init(timeout: Double) { self.timeout = timeout }

    /// Generated pictures come back as base64 in JSON: far more than any page needs, far less than this.
    static let largestBody = 512 << 20

    /// Redirects are followed only within the configured origin: the request carries the key, and a
    /// server that points elsewhere must not receive it (async-http-client would re-send every header).
    static let redirectLimit = 5

    func send(_ request: HTTPRequest) async throws(ProviderFailure) -> HTTPResponse {
        var current = request
        for _ in 0...Self.redirectLimit {
            let response = try await exchange(current)
            guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
            guard let location = response.headers["location"],
                  let target = URL(string: location, relativeTo: current.url)?.absoluteURL else {
                throw ProviderFailure(.invalid, "HTTP \(response.status) redirect without a usable Location")
            }
            guard let from = Origin(request.url), let to = Origin(target), from == to else {
                let shown = Origin(target)?.description ?? "an address that is not http(s)"
                throw ProviderFailure(.invalid, "the server at \(Origin(request.url)?.description ?? request.url.absoluteString) redirected to \(shown); "
                                      + "the key is sent only to the configured address, so the request was not repeated there "
                                      + "(set --base-url to the new address if you trust it)")
            }
            current.url = target
            if response.status == 303 || ([301, 302].contains(response.status) && current.httpMethod == "POST") {
                current.httpMethod = "GET"
                current.httpBody = nil
            }
        }
        throw ProviderFailure(.invalid, "more than \(Self.redirectLimit) redirects from \(Origin(request.url)?.description ?? request.url.absoluteString)")
    }

    private func exchange(_ request: HTTPRequest) async throws(ProviderFailure) -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1_000_000_000))
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            let body = try await response.body.collect(upTo: Self.largestBody)
            var headers: [String: String] = [:]
            for field in response.headers { headers[field.name.lowercased()] = field.value }
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch let error as HTTPClientError where error == .connectTimeout {
            throw ProviderFailure(.unreachable, "no connection to \(Origin(request.url)?.description ?? request.url.absoluteString) within \(Int(timeout)) s")
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error) {
            throw ProviderFailure(.retryable, "timed out after \(Int(timeout)) s")
        } catch where Self.isTLSFailure(error) {
            throw ProviderFailure(.tlsFailed, "no TLS connection to \(Origin(request.url)?.description ?? request.url.absoluteString): \(Self.tlsCause(error))")
        } catch where Self.isConnectionFailure(error) {
            throw ProviderFailure(.unreachable, "cannot connect to \(Origin(request.url)?.description ?? request.url.absoluteString): \(error)")
        } catch let error as HTTPClientError where Self.unsendable.contains(error) || error == .unsupportedScheme(request.url.scheme ?? "") {
            throw ProviderFailure(.invalid, "cannot send a request to \(request.url.absoluteString): \(error)", sent: false)
        } catch {
            throw ProviderFailure(.retryable, "network error: \(error)")
        }
    }

    /// Addresses the client refuses before it connects.
    static let unsendable: [HTTPClientError] = [.invalidURL, .emptyHost, .emptyScheme]

    /// A TLS handshake that failed: the address answers, but not as an https server this machine
    /// trusts. Trying again meets the same answer.
    static func isTLSFailure(_ error: any Error) -> Bool {
        switch error {
        case let e as NIOSSLError:
            if case .handshakeFailed = e { return true }
            return false
        case is NIOSSLExtraError: return true
        case let e as HTTPClientError: return e == .tlsHandshakeTimeout
        default: return false
        }
    }

    /// The cause in words, with BoringSSL's name for it (not the whole error stack).
    static func tlsCause(_ error: any Error) -> String {
        let text = "\(error)"
        guard let code = text.firstMatch(of: /OPENSSL_internal:([A-Z0-9_]+)/)?.1 else { return "the TLS handshake failed (\(text))" }
        switch code {
        case "WRONG_VERSION_NUMBER", "HTTP_REQUEST", "UNEXPECTED_RECORD":
            return "the server does not speak TLS (\(code)); a plain-HTTP server?"
        case "CERTIFICATE_VERIFY_FAILED":
            return "its certificate is not one this machine trusts (\(code))"
        default:
            return "the TLS handshake failed (\(code))"
        }
    }

    /// A connection that was never made, as opposed to one dropped after the request went out.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        switch error {
        case is NIOConnectionError: return true
        case let e as ChannelError:
            if case .connectTimeout = e { return true }
            return false
        case let e as IOError: return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(e.errnoCode)
        default: return false
        }
    }

    /// The process's clients, one per time-out, never shut down: they live as long as the
    /// process, as `AsyncHTTPClient.HTTPClient.shared` does.
    private static let clients = Mutex<[Double: AsyncHTTPClient.HTTPClient]>([:])

    private var client: AsyncHTTPClient.HTTPClient {
        Self.clients.withLock { clients in
            if let client = clients[timeout] { return client }
            let client = AsyncHTTPClient.HTTPClient(eventLoopGroup: .singletonMultiThreadedEventLoopGroup,
                                                    configuration: Self.configuration(ProcessInfo.processInfo.environment, timeout: timeout))
            clients[timeout] = client
            return client
        }
    }

    static func configuration(_ environment: [String: String], timeout: Double) -> AsyncHTTPClient.HTTPClient.Configuration {
        // The read and connect time-outs fire on the connection's own event loop, however busy the
        // program's other threads are; the deadline of each request bounds the whole exchange.
        let limit = TimeAmount.nanoseconds(Int64(timeout * 1_000_000_000))
        var configuration = AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: limit, read: limit),
            decompression: .enabled(limit: .size(largestBody)))
        configuration.proxy = ProxyVariables(environment).proxy
        // A connection that cannot be made fails its request at once; the job runner retries it
        // with its own backoff, bounded, and says so.
        configuration.connectionPool.retryConnectionEstablishment = false
        // As many connections to one provider as calls may be in flight (`--concurrency`).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return configuration
    }

    /// OpenAI's safety refusals: the picture was declined, trying the same prompt again will not help.
    static let refusalCodes: Set<String> = ["moderation_blocked", "content_policy_violation"]

    /// The classification every provider shares; provider-specific cases are checked first by the caller.
    static func classify(_ r: HTTPResponse, provider: String) -> ProviderFailure {
        let body = ProviderErrorBody(r.body)
        let hint = RetryHint.fromHeaders(r.headers) ?? body.retryDelay
        let what = "\(provider) HTTP \(r.status): \(body.summary)"
        let codes = [body.code, body.status].compactMap { $0?.lowercased() } + body.reasons.map { $0.lowercased() }
        switch r.status {
        case 429 where codes.contains("insufficient_quota"):
            return ProviderFailure(.noCredit, what)
        case 408, 409, 429, 500...599:
            return ProviderFailure(.retryable, what, retryAfter: hint)
        case 401:
            return ProviderFailure(.badKey, what)
        case 402:
            return ProviderFailure(.noCredit, what)
        case 400 where codes.contains("api_key_invalid"):
            return ProviderFailure(.badKey, what)
        case 400 where !refusalCodes.isDisjoint(with: codes):
            return ProviderFailure(.refused, what)
        case 403:
            return ProviderFailure(.badKey, what)
        default:
            return ProviderFailure(.invalid, what)
        }
    }
}
