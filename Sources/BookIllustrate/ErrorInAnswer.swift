import Foundation
import BookHTTP

extension HTTPClient {
    /// Error types that say the provider's side failed, as a 5xx does: worth another attempt.
    static let serverErrorTypes: Set<String> = ["server_error", "api_error", "internal", "internal_error", "unavailable",
                                                "overloaded_error", "deadline_exceeded"]

    /// A 200 whose body is the provider's error object rather than a picture: OpenRouter's way when
    /// generation fails after it started, and that of gateways in front of any provider. Every
    /// provider takes it alike: its message kept; a numeric `code` of 400–599 read as that status;
    /// a `server_error` (or Gemini's INTERNAL, UNAVAILABLE) retried as a 5xx is; anything else a
    /// failure of the picture, as a 4xx is.
    static func errorInAnswer(_ r: HTTPResponse, provider: String) -> ProviderFailure? {
        guard let root = try? JSONSerialization.jsonObject(with: r.body) as? [String: Any], let error = root["error"] else { return nil }
        var body = ProviderErrorBody(r.body)
        if let text = error as? String { body.message = text }
        let code = (error as? [String: Any])?["code"]
        let numeric = (code as? Int) ?? (code as? String).flatMap { Int($0) }
        let names = [(error as? [String: Any])?["type"] as? String, body.code, body.status].compactMap { $0?.lowercased() }
        let status = numeric.map { (400...599).contains($0) ? $0 : 400 }
            ?? (names.contains { serverErrorTypes.contains($0) } ? 500 : 400)
        var failure = classify(HTTPResponse(status: status, headers: r.headers, body: r.body), provider: provider)
        failure.reason = "\(provider) answered 200 with an error: \(body.summary)"
        return failure
    }
}
