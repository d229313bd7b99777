import Foundation
import Synchronization
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// HTTP through async-http-client (SwiftNIO, TLS from BoringSSL inside it): pure Swift, so a
/// process that never calls a remote service (every export) loads no HTTP or TLS library at
/// start-up. One client for the process, as async-http-client wants; requests run side by side on
/// its event loops.
public final class HTTPTransport: Sendable {
    public let timeout: Double

    public init(timeout: Double) { self.timeout = timeout }

    /// Generated pictures come back as base64 in JSON: far more than any page needs, far less than this.
    public static let largestBody = 512 << 20

    /// Redirects are followed only within the configured origin: the request carries a key, and a
    /// server that points elsewhere must not receive it (async-http-client would re-send every header).
    public static let redirectLimit = 5

    public func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse {
        var current = request
        for _ in 0...Self.redirectLimit {
            let response = try await exchange(current)
            guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
            guard let location = response.headers["location"],
                  let target = URL(string: location, relativeTo: current.url)?.absoluteURL else {
                throw TransportFailure(.refusedRedirect, "HTTP \(response.status) redirect without a usable Location")
            }
            guard let from = Origin(request.url), let to = Origin(target), from == to else {
                let shown = Origin(target)?.description ?? "an address that is not http(s)"
                throw TransportFailure(.refusedRedirect, "the server at \(Origin(request.url)?.description ?? request.url.absoluteString) redirected to \(shown); "
                                       + "the key is sent only to the configured address, so the request was not repeated there "
                                       + "(set --base-url to the new address if you trust it)")
            }
            current.url = target
            if response.status == 303 || ([301, 302].contains(response.status) && current.httpMethod == "POST") {
                current.httpMethod = "GET"
                current.httpBody = nil
            }
        }
        throw TransportFailure(.refusedRedirect, "more than \(Self.redirectLimit) redirects from \(Origin(request.url)?.description ?? request.url.absoluteString)")
    }

    private func exchange(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse {
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
            throw TransportFailure(.unreachable, "no connection to \(Origin(request.url)?.description ?? request.url.absoluteString) within \(Int(timeout)) s")
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error) {
            throw TransportFailure(.timedOut, "timed out after \(Int(timeout)) s")
        } catch where Self.isTLSFailure(error) {
            throw TransportFailure(.tlsFailed, "no TLS connection to \(Origin(request.url)?.description ?? request.url.absoluteString): \(Self.tlsCause(error))")
        } catch where Self.isConnectionFailure(error) {
            throw TransportFailure(.unreachable, "cannot connect to \(Origin(request.url)?.description ?? request.url.absoluteString): \(error)")
        } catch let error as HTTPClientError where Self.unsendable.contains(error) || error == .unsupportedScheme(request.url.scheme ?? "") {
            throw TransportFailure(.unsendable, "cannot send a request to \(request.url.absoluteString): \(error)")
        } catch {
            throw TransportFailure(.dropped, "network error: \(error)")
        }
    }

    /// Addresses the client refuses before it connects.
    static let unsendable: [HTTPClientError] = [.invalidURL, .emptyHost, .emptyScheme]

    /// A TLS handshake that failed: the address answers, but not as an https server this machine
    /// trusts. Trying again meets the same answer.
    public static func isTLSFailure(_ error: any Error) -> Bool {
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
    public static func isConnectionFailure(_ error: any Error) -> Bool {
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

    public static func configuration(_ environment: [String: String], timeout: Double) -> AsyncHTTPClient.HTTPClient.Configuration {
        // The read and connect time-outs fire on the connection's own event loop, however busy the
        // program's other threads are; the deadline of each request bounds the whole exchange.
        let limit = TimeAmount.nanoseconds(Int64(timeout * 1_000_000_000))
        var configuration = AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: limit, read: limit),
            decompression: .enabled(limit: .size(largestBody)))
        configuration.proxy = ProxyVariables(environment).proxy
        // A connection that cannot be made fails its request at once; the callers retry with
        // their own backoff, bounded, and say so.
        configuration.connectionPool.retryConnectionEstablishment = false
        // As many connections to one server as calls may be in flight (`illustrate --concurrency`).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return configuration
    }
}
