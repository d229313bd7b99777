import Foundation

/// A source of pictures. Implementations are stateless apart from their settings, so one value
/// serves every concurrent call.
public protocol ImageProvider: Sendable {
    /// "openai", "gemini", "openrouter", "local": the cache key and messages use it.
    var name: String { get }
    var model: String { get }
    /// What the provider is asked for (size, ratio, quality), part of the cache key.
    func sizeKey(for request: GenerationRequest) -> String
    /// The picture's bytes (PNG or JPEG), or a `ProviderFailure`.
    func generate(_ request: GenerationRequest) async throws(ProviderFailure) -> Data
    /// US dollars per picture, for --dry-run; nil when the reference gives no price.
    func estimatedCost(_ request: GenerationRequest) -> Double?
}

public enum ProviderName: String, CaseIterable, Sendable {
    case openai, gemini, openrouter, local

    public var defaultModel: String {
        switch self {
        case .openai: return "gpt-image-1"
        case .gemini: return "gemini-2.5-flash-image"
        case .openrouter: return "google/gemini-2.5-flash-image"
        case .local: return "local-1"
        }
    }

    public var defaultBaseURL: String {
        switch self {
        case .openai: return "https://api.openai.com"
        case .gemini: return "https://generativelanguage.googleapis.com"
        case .openrouter: return "https://openrouter.ai/api"
        case .local: return ""
        }
    }

    public var keyVariable: String? {
        switch self {
        case .openai: return "OPENAI_API_KEY"
        case .gemini: return "GEMINI_API_KEY"
        case .openrouter: return "OPENROUTER_API_KEY"
        case .local: return nil
        }
    }
}

/// Settings for building a provider.
public struct ProviderSettings: Sendable {
    public var name: ProviderName
    public var model: String
    /// Replaces the scheme and host (and any path prefix) of the provider's address.
    public var baseURL: String
    /// Never printed, logged or written: only placed in the request's auth header.
    var apiKey: String
    public var timeout: Double
    /// The local provider's palette (hex colours), taken from the book's theme.
    public var palette: [String]

    public init(name: ProviderName, model: String? = nil, baseURL: String? = nil, apiKey: String = "",
                timeout: Double = 240, palette: [String] = []) {
        self.name = name; self.model = model ?? name.defaultModel
        self.baseURL = (baseURL ?? name.defaultBaseURL).trimmingSuffix("/")
        self.apiKey = apiKey; self.timeout = timeout; self.palette = palette
    }

    public func makeProvider() -> any ImageProvider {
        switch name {
        case .openai: return OpenAIProvider(settings: self)
        case .gemini: return GeminiProvider(settings: self)
        case .openrouter: return OpenRouterProvider(settings: self)
        case .local: return LocalProvider(model: model, palette: palette)
        }
    }

    func endpoint(_ path: String) throws(ProviderFailure) -> URL {
        guard let url = URL(string: baseURL + path), url.scheme == "http" || url.scheme == "https" else {
            throw ProviderFailure(.invalid, "\(name.rawValue): --base-url \(baseURL) is not an http(s) address")
        }
        return url
    }
}

extension String {
    func trimmingSuffix(_ s: String) -> String {
        var t = self
        while t.hasSuffix(s) { t.removeLast(s.count) }
        return t
    }
}

/// Providers echo bits of a request in errors; a key must never reach a message, the journal or a file.
func redact(_ text: String, key: String) -> String {
    key.count >= 4 ? text.replacingOccurrences(of: key, with: "[key]") : text
}
