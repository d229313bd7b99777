import Foundation
import BookHTTP

/// Calls to Lulu's Print API: a token from the client credentials, kept in memory until shortly
/// before it expires (and fetched again once when Lulu says it has expired); calls that are safe
/// to repeat retried on a dropped connection, a time-out, 429 or a 5xx, with a growing wait; every
/// refusal turned into a message that names what was asked and what Lulu answered, keys and token
/// taken out.
public final class LuluClient: Sendable {
    public let settings: LuluSettings
    let transport: HTTPTransport
    let tokens = TokenCache()
    let pause: @Sendable (Double) async -> Void

    public init(settings: LuluSettings, pause: (@Sendable (Double) async -> Void)? = nil) {
        self.settings = settings
        transport = HTTPTransport(timeout: settings.timeout)
        self.pause = pause ?? { seconds in try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000)) }
    }

    /// Answers that say "not now": rate limited, or the server or a gateway before it failed.
    static let transient: Set<Int> = [429, 500, 502, 503, 504]

    /// Failures of the connection that may pass: another attempt may get through.
    static let passing: Set<TransportFailure.Kind> = [.unreachable, .timedOut, .dropped]

    /// Sends `call` and returns a 2xx answer.
    func send(_ call: LuluCall) async throws(OrderError) -> HTTPResponse {
        var refreshed = false
        var attempt = 0
        while true {
            attempt += 1
            let token = try await tokens.token { () async throws(OrderError) -> (String, Double) in try await self.fetchToken() }
            var request = HTTPRequest(url: try settings.url(call.path, query: call.query))
            request.httpMethod = call.method
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            if let body = call.body {
                request.httpBody = body
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            let response: HTTPResponse
            do { response = try await transport.send(request) } catch {
                // A connection never made carried nothing: any call may go again. A refused
                // handshake, a refused redirect or an address the client cannot send to answers
                // the same every time.
                if Self.passing.contains(error.kind), call.repeatable || error.kind == .unreachable, attempt < settings.attempts {
                    await backoff(attempt)
                    continue
                }
                var failure = OrderError(.failed, "Lulu (\(settings.environmentName)) gave no answer for \(call.what): \(settings.redacted(error.reason, token: token))")
                failure.mayHaveActed = error.kind == .timedOut || error.kind == .dropped
                throw failure
            }
            switch response.status {
            case 200..<300:
                return response
            case 401 where !refreshed:
                // Expired before its time, or revoked: one new token, then the call again.
                await tokens.drop(token)
                refreshed = true
                attempt -= 1
                continue
            case let status where Self.transient.contains(status) && call.repeatable && attempt < settings.attempts:
                await backoff(attempt, hint: RetryHint.fromHeaders(response.headers))
                continue
            default:
                throw refusal(response, call, token: token, attempts: attempt)
            }
        }
    }

    /// Sends `call` and reads its answer as `T`.
    func request<T: Decodable>(_ call: LuluCall, as type: T.Type) async throws(OrderError) -> T {
        let response = try await send(call)
        return try decode(type, response.body, call)
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: Data, _ call: LuluCall) throws(OrderError) -> T {
        do { return try JSONDecoder().decode(type, from: body) } catch {
            throw OrderError(.failed, "Lulu's answer to \(call.what) is not what its documentation describes (\(Self.describe(error))): "
                             + settings.redacted(String(decoding: body.prefix(300), as: UTF8.self)))
        }
    }

    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            "$" + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let c)?: return "\(path(c)).\(key.stringValue) is missing"
        case .typeMismatch(_, let c)?: return "\(path(c)): \(c.debugDescription)"
        case .valueNotFound(_, let c)?: return "\(path(c)) is null"
        case .dataCorrupted(let c)?: return "\(path(c)): \(c.debugDescription)"
        default: return "\(error)"
        }
    }

    private func backoff(_ attempt: Int, hint: Double? = nil) async {
        let wait = hint.map { min($0, 60) } ?? settings.retryDelay * pow(2, Double(attempt - 1))
        await pause(wait)
    }

    private func refusal(_ r: HTTPResponse, _ call: LuluCall, token: String, attempts: Int) -> OrderError {
        let said = settings.redacted(LuluErrorBody.summary(r.body), token: token)
        let env = settings.environmentName
        switch r.status {
        case 400, 409, 422:
            return OrderError(.rejected, "Lulu (\(env)) refused \(call.what) (HTTP \(r.status)): \(said)")
        case 404:
            return OrderError(.rejected, "Lulu (\(env)) has no \(call.what) (HTTP 404): \(said)")
        case 401:
            return OrderError(.failed, "Lulu (\(env)) refused a fresh token for \(call.what) (HTTP 401: \(said)); check \(LuluSettings.keyVariable) and \(LuluSettings.secretVariable)")
        case 403:
            return OrderError(.failed, "Lulu (\(env)) does not let these keys ask for \(call.what) (HTTP 403: \(said)); check \(LuluSettings.keyVariable) and \(LuluSettings.secretVariable) are the \(env) keys")
        case 429, 500...599:
            var e = OrderError(.failed, "Lulu (\(env)) answered HTTP \(r.status) to \(call.what)"
                               + (call.repeatable ? " \(attempts) time\(attempts == 1 ? "" : "s")" : "") + ": \(said); try again later")
            e.mayHaveActed = r.status != 429
            return e
        default:
            return OrderError(.failed, "Lulu (\(env)) answered HTTP \(r.status) to \(call.what): \(said)")
        }
    }

    /// The OAuth client-credentials grant, as Lulu's "Generate a Token" section gives it: a form
    /// body and the key and secret as a Basic credential, to the realm's token endpoint.
    private func fetchToken() async throws(OrderError) -> (String, Double) {
        var request = HTTPRequest(url: try settings.url(LuluSettings.tokenPath))
        request.httpMethod = "POST"
        request.httpBody = Data("grant_type=client_credentials".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("Basic \(settings.basicCredential)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let env = settings.environmentName
        var attempt = 0
        while true {
            attempt += 1
            let response: HTTPResponse
            do { response = try await transport.send(request) } catch {
                if Self.passing.contains(error.kind), attempt < settings.attempts { await backoff(attempt); continue }
                throw OrderError(.failed, "Lulu (\(env)) gave no token: \(settings.redacted(error.reason))")
            }
            switch response.status {
            case 200..<300:
                guard let token = try? JSONDecoder().decode(LuluWire.Token.self, from: response.body), !token.access_token.isEmpty else {
                    throw OrderError(.failed, "Lulu's token endpoint answered without an access_token")
                }
                return (token.access_token, Double(token.expires_in ?? 300))
            case let status where Self.transient.contains(status) && attempt < settings.attempts:
                await backoff(attempt, hint: RetryHint.fromHeaders(response.headers))
            case 400, 401, 403:
                throw OrderError(.failed, "Lulu (\(env)) refused the client key and secret (HTTP \(response.status): "
                                 + "\(settings.redacted(LuluErrorBody.summary(response.body)))); check \(LuluSettings.keyVariable) and "
                                 + "\(LuluSettings.secretVariable) are the \(env) keys")
            default:
                throw OrderError(.failed, "Lulu (\(env)) answered HTTP \(response.status) for a token: \(settings.redacted(LuluErrorBody.summary(response.body)))")
            }
        }
    }
}

/// The access token, in memory only, fetched again a little before Lulu says it expires.
actor TokenCache {
    private var current: (token: String, expires: Date)?
    private var fetching: Task<(String, Double), any Error>?
    /// A token this close to its end is not sent: the call might outlive it.
    static let margin: Double = 30

    func token(_ fetch: @escaping @Sendable () async throws(OrderError) -> (String, Double)) async throws(OrderError) -> String {
        if let current, current.expires.timeIntervalSinceNow > Self.margin { return current.token }
        let task = fetching ?? Task { try await fetch() }
        fetching = task
        defer { fetching = nil }
        do {
            let (token, lifetime) = try await task.value
            current = (token, Date().addingTimeInterval(lifetime))
            return token
        } catch let e as OrderError { throw e } catch { throw OrderError(.failed, "\(error)") }
    }

    func drop(_ token: String) {
        if current?.token == token { current = nil }
    }
}
