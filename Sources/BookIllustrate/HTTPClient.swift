import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange, with transport failures turned into `ProviderFailure`s.
struct HTTPResponse: Sendable {
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: Data
}

final class HTTPClient: Sendable {
    let session: URLSession

    init(timeout: Double) {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.urlCache = nil
        config.httpMaximumConnectionsPerHost = 64
        session = URLSession(configuration: config)
    }

    func send(_ request: URLRequest) async throws(ProviderFailure) -> HTTPResponse {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw ProviderFailure(.retryable, "no HTTP response") }
            var headers: [String: String] = [:]
            for (k, v) in http.allHeaderFields {
                if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let f as ProviderFailure {
            throw f
        } catch let e as URLError {
            switch e.code {
            case .timedOut: throw ProviderFailure(.retryable, "timed out after \(Int(session.configuration.timeoutIntervalForRequest)) s")
            case .cancelled: throw ProviderFailure(.retryable, "cancelled")
            default: throw ProviderFailure(.retryable, "network error: \(e.localizedDescription) (\(e.code.rawValue))")
            }
        } catch {
            throw ProviderFailure(.retryable, "network error: \(error.localizedDescription)")
        }
    }

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
        case 400 where codes.contains("moderation_blocked"):
            return ProviderFailure(.refused, what)
        case 403:
            return ProviderFailure(.badKey, what)
        default:
            return ProviderFailure(.invalid, what)
        }
    }
}
