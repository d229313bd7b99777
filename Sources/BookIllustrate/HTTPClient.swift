import Foundation
import CShim

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

/// HTTP through libcurl (`shim_http.c`), loaded when the first request is sent. Each exchange
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
        var result = shim_http_result()
        defer { shim_http_result_free(&result) }
        let lines = request.headers.map { strdup("\($0.name): \($0.value)") }
        defer { lines.forEach { free($0) } }
        let code: Int32 = lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
            let perform = { (body: UnsafeRawPointer?, length: Int) in
                shim_http_perform(request.httpMethod, request.url.absoluteString, headers.baseAddress, Int32(headers.count),
                                  body, length, Int(timeout * 1000), &result)
            }
            guard let body = request.httpBody else { return perform(nil, 0) }
            // A non-nil pointer even for an empty body: libcurl then sends Content-Length: 0.
            return body.isEmpty ? perform("", 0) : body.withUnsafeBytes { perform($0.baseAddress, $0.count) }
        }
        let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch code {
        case 0:
            let body = result.body.map { Data(bytes: $0, count: result.body_length) } ?? Data()
            let head = result.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: result.headers_length), as: UTF8.self) } ?? ""
            return .success(HTTPResponse(status: result.status, headers: headerFields(head), body: body))
        case -1:
            return .failure(ProviderFailure(.invalid, "cannot load libcurl to reach \(request.url.host ?? "the provider") (\(message)); "
                                            + "install the Debian package libcurl4"))
        default:
            if result.timed_out != 0 { return .failure(ProviderFailure(.retryable, "timed out after \(Int(timeout)) s")) }
            return .failure(ProviderFailure(.retryable, "network error: \(message) (curl \(code))"))
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
