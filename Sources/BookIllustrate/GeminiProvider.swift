import Foundation
import BookHTTP

/// Gemini API `generateContent` with `inlineData` references and `imageConfig.aspectRatio`.
struct GeminiProvider: NamedProvider {
    static let defaultModel = "gemini-2.5-flash-image"
    static let defaultBaseURL = "https://generativelanguage.googleapis.com"
    static let keyVariable: String? = "GEMINI_API_KEY"

    let settings: ProviderSettings
    let client: HTTPClient

    init(settings: ProviderSettings) { self.settings = settings; client = HTTPClient(timeout: settings.timeout) }

    var name: String { "gemini" }
    var model: String { settings.model }

    func sizeKey(for request: GenerationRequest) -> String { request.job.aspect.gemini }

    func estimatedCost(_ request: GenerationRequest) -> Double? { ModelCapabilities.of(model, provider: .gemini).price(request.resolution) }

    func generate(_ request: GenerationRequest) async throws(ProviderFailure) -> Data {
        var parts: [[String: Any]] = [["text": request.prompt]]
        for ref in request.references {
            parts.append(["inlineData": ["mimeType": ref.mimeType, "data": ref.data.base64EncodedString()]])
        }
        let body: [String: Any] = [
            "contents": [["role": "user", "parts": parts]],
            // Without aspectRatio and with a reference image, the output copies the reference's size.
            "generationConfig": ["responseModalities": ["TEXT", "IMAGE"], "imageConfig": ["aspectRatio": request.job.aspect.gemini]],
        ]
        var http = HTTPRequest(url: try settings.endpoint("/v1beta/models/\(model):generateContent"))
        http.httpMethod = "POST"
        http.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        http.setValue(settings.apiKey, forHTTPHeaderField: "x-goog-api-key")
        let r = try await client.send(http)
        guard r.status == 200 else { throw HTTPClient.classify(r, provider: name) }
        if let failure = HTTPClient.errorInAnswer(r, provider: name) { throw failure }
        return try Self.image(in: r.body)
    }

    /// Scans every part of every candidate; accepts camelCase and snake_case.
    static func image(in body: Data) throws(ProviderFailure) -> Data {
        guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw ProviderFailure(.retryable, "gemini: the response is not JSON")
        }
        let feedback = (root["promptFeedback"] ?? root["prompt_feedback"]) as? [String: Any]
        if let block = (feedback?["blockReason"] ?? feedback?["block_reason"]) as? String {
            throw ProviderFailure(.refused, "gemini blocked the prompt: \(block)")
        }
        var finishReasons: [String] = []
        var texts: [String] = []
        for candidate in root["candidates"] as? [[String: Any]] ?? [] {
            if let f = (candidate["finishReason"] ?? candidate["finish_reason"]) as? String { finishReasons.append(f) }
            let content = candidate["content"] as? [String: Any]
            for part in content?["parts"] as? [[String: Any]] ?? [] {
                if part["thought"] as? Bool == true { continue }
                if let inline = (part["inlineData"] ?? part["inline_data"]) as? [String: Any],
                   let b64 = inline["data"] as? String,
                   let data = Data(base64Encoded: b64, options: .ignoreUnknownCharacters) {
                    return data
                }
                if let t = part["text"] as? String { texts.append(t) }
            }
        }
        let finish = finishReasons.first(where: { $0 != "STOP" }) ?? finishReasons.first ?? "no candidates"
        var reason = "gemini returned no image (finishReason \(finish))"
        if let t = texts.first, !t.isEmpty { reason += ": \(t.prefix(200))" }
        throw ProviderFailure(.refused, reason)
    }
}
