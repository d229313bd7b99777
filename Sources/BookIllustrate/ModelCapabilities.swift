import Foundation

/// What a model accepts beyond the fields every model of its provider takes, and what a picture
/// costs, kept as data in one place so that no provider compares model names in code. A model not
/// listed gets only the common fields (a field a model does not know is a 400 and a lost call) and
/// no price estimate; a new model is supported by adding its row.
struct ModelCapabilities: Sendable, Equatable {
    /// OpenAI's `input_fidelity` on `/v1/images/edits`: a closer match to the reference's face.
    var inputFidelity = false
    /// US dollars per picture at `preview` and at `print` resolution, from the providers' price lists.
    var previewPrice: Double?
    var printPrice: Double?

    func price(_ resolution: Resolution) -> Double? { resolution == .preview ? previewPrice : printPrice }

    /// Names as the user passes them to `--model`, per provider.
    static let table: [ProviderName: [String: ModelCapabilities]] = [
        .openai: [
            // The OpenAI SDK lists input_fidelity for gpt-image-1 and gpt-image-1.5, not for the mini model.
            "gpt-image-1": .init(inputFidelity: true, previewPrice: 0.016, printPrice: 0.25),
            "gpt-image-1.5": .init(inputFidelity: true),
            "gpt-image-1-mini": .init(inputFidelity: false),
        ],
        .gemini: [
            // About 1290 output tokens at $30 per million.
            "gemini-2.5-flash-image": .init(previewPrice: 0.039, printPrice: 0.039),
            "gemini-2.5-flash-image-preview": .init(previewPrice: 0.039, printPrice: 0.039),
        ],
        .openrouter: [
            "google/gemini-2.5-flash-image": .init(previewPrice: 0.039, printPrice: 0.039),
            "google/gemini-2.5-flash-image-preview": .init(previewPrice: 0.039, printPrice: 0.039),
        ],
    ]

    static func of(_ model: String, provider: ProviderName) -> ModelCapabilities {
        table[provider]?[model] ?? ModelCapabilities()
    }
}
