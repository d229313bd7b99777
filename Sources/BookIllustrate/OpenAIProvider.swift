import Foundation
import BookHTTP

/// OpenAI Images: `/v1/images/edits` (multipart, references as `image[]`) or `/v1/images/generations`.
struct OpenAIProvider: NamedProvider {
    static let defaultModel = "gpt-image-1"
    static let defaultBaseURL = "https://api.openai.com"
    static let keyVariable: String? = "OPENAI_API_KEY"

    let settings: ProviderSettings
    let client: HTTPClient

    init(settings: ProviderSettings) { self.settings = settings; client = HTTPClient(timeout: settings.timeout) }

    var name: String { "openai" }
    var model: String { settings.model }

    func quality(_ r: Resolution) -> String { r == .preview ? "low" : "high" }

    func sizeKey(for request: GenerationRequest) -> String { "\(request.job.aspect.openAISize)/\(quality(request.resolution))" }

    func askedShape(for request: GenerationRequest) -> AskedShape { AskedShape(request.job.aspect.openAISize) }

    var capabilities: ModelCapabilities { .of(model, provider: .openai) }

    /// The 1024×1536 price; other sizes cost about the same or less.
    func estimatedCost(_ request: GenerationRequest) -> Double? { capabilities.price(request.resolution) }

    func generate(_ request: GenerationRequest) async throws(ProviderFailure) -> Data {
        var http: HTTPRequest
        if request.references.isEmpty {
            http = HTTPRequest(url: try settings.endpoint("/v1/images/generations"))
            let body: [String: Any] = ["model": model, "prompt": request.prompt, "n": 1, "size": request.job.aspect.openAISize,
                                       "quality": quality(request.resolution), "output_format": "png", "background": "opaque"]
            http.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            http.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else {
            http = HTTPRequest(url: try settings.endpoint("/v1/images/edits"))
            var form = Multipart()
            form.field("model", model)
            form.field("prompt", request.prompt)
            form.field("n", "1")
            form.field("size", request.job.aspect.openAISize)
            form.field("quality", quality(request.resolution))
            form.field("output_format", "png")
            if capabilities.inputFidelity { form.field("input_fidelity", "high") }
            for (i, ref) in request.references.enumerated() {
                form.file("image[]", filename: "reference-\(i + 1).\(ref.fileExtension)", contentType: ref.mimeType, data: ref.data)
            }
            http.httpBody = form.finished()
            http.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        }
        http.httpMethod = "POST"
        http.setValue("Bearer \(settings.apiKey)", forHTTPHeaderField: "Authorization")
        let r = try await client.send(http)
        guard r.status == 200 else { throw HTTPClient.classify(r, provider: name) }
        if let failure = HTTPClient.errorInAnswer(r, provider: name) { throw failure }
        guard let root = try? JSONSerialization.jsonObject(with: r.body) as? [String: Any] else {
            throw ProviderFailure(.retryable, "openai: the response is not JSON")
        }
        for item in root["data"] as? [[String: Any]] ?? [] {
            if let b64 = item["b64_json"] as? String, let data = Data(base64Encoded: b64, options: .ignoreUnknownCharacters) {
                return data
            }
        }
        throw ProviderFailure(.refused, "openai returned no image")
    }
}
