import Foundation

/// The providers `--provider` can name. A new one is its `…Provider.swift` (an `ImageProvider` that is
/// also a `NamedProvider`) and a case here; the compiler asks for its line in `provider`.
public enum ProviderName: String, CaseIterable, Sendable {
    case openai, gemini, openrouter, local

    var provider: any NamedProvider.Type {
        switch self {
        case .openai: OpenAIProvider.self
        case .gemini: GeminiProvider.self
        case .openrouter: OpenRouterProvider.self
        case .local: LocalProvider.self
        }
    }

    public var defaultModel: String { provider.defaultModel }
    public var defaultBaseURL: String { provider.defaultBaseURL }
    public var keyVariable: String? { provider.keyVariable }
    /// Whether a preview picture is cheaper than a print one (OpenAI's `quality`, the local drawing's
    /// size); Gemini's and OpenRouter's image models make one size at one price.
    public var hasCheaperPreview: Bool { self == .openai || self == .local }
}
