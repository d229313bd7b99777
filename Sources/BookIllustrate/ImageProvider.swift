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
    /// The shape the call asks for, to compare the picture with.
    func askedShape(for request: GenerationRequest) -> AskedShape
}

extension ImageProvider {
    /// Gemini's ratios, which OpenRouter's `image_config` takes too.
    public func askedShape(for request: GenerationRequest) -> AskedShape { AskedShape(request.job.aspect.gemini) }
}

/// What is known of a provider before one is made: the defaults `ProviderSettings` fills in, and how
/// to make it. `ProviderName` lists the providers that have it.
protocol NamedProvider: ImageProvider {
    static var defaultModel: String { get }
    /// The scheme and host (and any path prefix) it calls; empty for one that calls nothing.
    static var defaultBaseURL: String { get }
    /// The environment variable holding its API key; nil for one that needs no key.
    static var keyVariable: String? { get }
    init(settings: ProviderSettings)
}

/// Settings for building a provider.
public struct ProviderSettings: Sendable {
    public var name: ProviderName
    public var model: String
    /// Everything before the API path (scheme, host, port, path prefix); `endpoint` appends the path.
    public var baseURL: String
    /// Never printed, logged or written: only placed in the request's auth header.
    var apiKey: String
    public var timeout: Double
    /// The local provider's palette (hex colours), taken from the book's theme.
    public var palette: [String]

    public init(name: ProviderName, model: String? = nil, baseURL: String? = nil, apiKey: String = "",
                timeout: Double = 240, palette: [String] = []) {
        self.name = name; self.model = model ?? name.defaultModel
        self.baseURL = Self.lowercasingScheme((baseURL ?? name.defaultBaseURL).trimmingSuffix("/"))
        self.apiKey = apiKey; self.timeout = timeout; self.palette = palette
    }

    public func makeProvider() -> any ImageProvider {
        name.provider.init(settings: self)
    }

    /// Schemes are case-insensitive (RFC 3986): `HTTP://…` is the `http://…` every check and the
    /// HTTP client take.
    static func lowercasingScheme(_ address: String) -> String {
        guard let end = address.range(of: "://") else { return address }
        return address[..<end.lowerBound].lowercased() + address[end.lowerBound...]
    }

    func endpoint(_ path: String) throws(ProviderFailure) -> URL {
        guard let url = URL(string: baseURL + path), url.scheme == "http" || url.scheme == "https" else {
            throw ProviderFailure(.invalid, "\(name.rawValue): --base-url \(baseURL) is not an http(s) address", sent: false)
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

