import Foundation
import BookHTTP

/// The providers' HTTP: the shared transport (in-origin redirects, proxies, time-outs) with its
/// failures told as `ProviderFailure`s, and the classification of the providers' error answers.
final class HTTPClient: Sendable {
    let transport: HTTPTransport

    init(timeout: Double) { transport = HTTPTransport(timeout: timeout) }

    var timeout: Double { transport.timeout }

    func send(_ request: HTTPRequest) async throws(ProviderFailure) -> HTTPResponse {
        do { return try await transport.send(request) } catch {
            switch error.kind {
            case .unreachable: throw ProviderFailure(.unreachable, error.reason)
            case .tlsFailed: throw ProviderFailure(.tlsFailed, error.reason)
            case .unsendable: throw ProviderFailure(.invalid, error.reason, sent: false)
            case .timedOut, .dropped: throw ProviderFailure(.retryable, error.reason)
            case .refusedRedirect: throw ProviderFailure(.invalid, error.reason)
            }
        }
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
