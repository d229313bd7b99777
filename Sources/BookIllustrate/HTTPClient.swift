import Foundation

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

/// HTTP through libcurl (`CurlTransfer`). Each exchange
/// blocks a thread of its own, so requests run side by side as the job runner asks.
final class HTTPClient: Sendable {
    let timeout: Double

    init(timeout: Double) { self.timeout = timeout }

    func send(_ request: HTTPRequest) async throws(ProviderFailure) -> HTTPResponse {
        let timeout = self.timeout
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<HTTPResponse, ProviderFailure>, Never>) in
            Thread.detachNewThread { done.resume(returning: Self.perform(request, timeout: timeout)) }
        }
        return try result.get()
    }

    private static func perform(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, ProviderFailure> {
        let outcome = CurlTransfer.perform(method: request.httpMethod, url: request.url.absoluteString,
                                           headers: request.headers.map { "\($0.name): \($0.value)" },
                                           body: request.httpBody, timeout: timeout)
        switch outcome {
        case .success(let response):
            return .success(HTTPResponse(status: response.status, headers: headerFields(response.headerLines), body: response.body))
        case .failure(let failure) where failure.timedOut:
            return .failure(ProviderFailure(.retryable, "timed out after \(Int(timeout)) s"))
        case .failure(let failure):
            return .failure(ProviderFailure(.retryable, "network error: \(failure.message) (curl \(failure.code))"))
        }
    }

    /// "Name: value" lines after the status line; a repeated name keeps its last value.
    static func headerFields(_ head: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in head.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
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
