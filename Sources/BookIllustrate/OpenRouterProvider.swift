import Foundation
import BookHTTP

/// OpenRouter chat completions with `modalities: ["image","text"]` and data-URL references.
struct OpenRouterProvider: NamedProvider {
    static let defaultModel = "google/gemini-2.5-flash-image"
    static let defaultBaseURL = "https://openrouter.ai/api"
    static let keyVariable: String? = "OPENROUTER_API_KEY"

    let settings: ProviderSettings
    let client: HTTPClient

    init(settings: ProviderSettings) { self.settings = settings; client = HTTPClient(timeout: settings.timeout) }

    var name: String { "openrouter" }
    var model: String { settings.model }

    func sizeKey(for request: GenerationRequest) -> String { request.job.aspect.gemini }

    /// Each response carries its real `usage.cost`; before a call only the table's prices are known.
    func estimatedCost(_ request: GenerationRequest) -> Double? { ModelCapabilities.of(model, provider: .openrouter).price(request.resolution) }

    func generate(_ request: GenerationRequest) async throws(ProviderFailure) -> Data {
        var content: [[String: Any]] = [["type": "text", "text": request.prompt]]
        for ref in request.references {
            content.append(["type": "image_url", "image_url": ["url": "data:\(ref.mimeType);base64,\(ref.data.base64EncodedString())"]])
        }
        let body: [String: Any] = [
            "model": model,
            "messages": [["role": "user", "content": content]],
            "modalities": ["image", "text"],
            "image_config": ["aspect_ratio": request.job.aspect.gemini],
            "stream": false,
        ]
        var http = HTTPRequest(url: try settings.endpoint("/v1/chat/completions"))
        http.httpMethod = "POST"
        http.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.setValue("Bearer \(settings.apiKey)", forHTTPHeaderField: "Authorization")
        let r = try await client.send(http)
        if r.status == 403 { throw Self.forbidden(r) }
        guard r.status == 200 else { throw HTTPClient.classify(r, provider: name) }
        if let failure = HTTPClient.errorInAnswer(r, provider: name) { throw failure }
        return try Self.image(in: r)
    }

    /// OpenRouter answers 403 for three different things, and only its moderation is about the
    /// picture: a guardrail is the account's own rule (allowed models and providers, a budget, a
    /// prompt-injection filter), and a permission is the key's.
    static func forbidden(_ r: HTTPResponse) -> ProviderFailure {
        let body = ProviderErrorBody(r.body)
        let message = body.message?.lowercased() ?? ""
        if body.flagged || message.contains("moderation") || message.contains("flagged") {
            return ProviderFailure(.refused, "openrouter moderation: \(body.summary)")
        }
        if let limit = body.limitSource {
            return ProviderFailure(.noCredit, "openrouter budget limit (\(limit)): \(body.summary)")
        }
        if message.contains("guardrail") || message.contains("request blocked") {
            return ProviderFailure(.invalid, "openrouter guardrail: \(body.summary) (see the account's or key's guardrails in OpenRouter's settings)")
        }
        return ProviderFailure(.badKey, "openrouter permission denied: \(body.summary) (the key may not use this model or endpoint)")
    }

    static func image(in r: HTTPResponse) throws(ProviderFailure) -> Data {
        guard let root = try? JSONSerialization.jsonObject(with: r.body) as? [String: Any] else {
            throw ProviderFailure(.retryable, "openrouter: the response is not JSON")
        }
        var finish: String?
        for choice in root["choices"] as? [[String: Any]] ?? [] {
            finish = finish ?? (choice["native_finish_reason"] as? String) ?? (choice["finish_reason"] as? String)
            let message = choice["message"] as? [String: Any]
            for image in message?["images"] as? [[String: Any]] ?? [] {
                guard let url = (image["image_url"] as? [String: Any])?["url"] as? String,
                      url.hasPrefix("data:"), let comma = url.firstIndex(of: ","),
                      let data = Data(base64Encoded: String(url[url.index(after: comma)...]), options: .ignoreUnknownCharacters)
                else { continue }
                return data
            }
        }
        throw ProviderFailure(.refused, "openrouter returned no image (finish reason \(finish ?? "none"))")
    }
}
