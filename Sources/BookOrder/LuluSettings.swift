import Foundation
import BookHTTP

/// Where Lulu's Print API is and the keys it takes. The keys are never printed, logged or written:
/// they go only into the token request's Basic credential, and the token they buy only into the
/// Authorization header of calls to the same origin.
public struct LuluSettings: Sendable {
    public static let sandbox = "https://api.sandbox.lulu.com"
    public static let production = "https://api.lulu.com"
    /// Lulu's OpenID Connect token endpoint, below the API's own origin.
    public static let tokenPath = "/auth/realms/glasstree/protocol/openid-connect/token"
    public static let keyVariable = "LULU_CLIENT_KEY"
    public static let secretVariable = "LULU_CLIENT_SECRET"

    /// Everything before the API path (scheme, host, port, any prefix), without a trailing `/`.
    public var baseURL: String
    var clientKey: String
    var clientSecret: String
    /// Seconds to wait for one call.
    public var timeout: Double
    /// Seconds between two looks at a file validation still running.
    public var pollInterval: Double
    /// Seconds a file validation may take before the order gives up on it.
    public var pollLimit: Double
    /// The first wait before a call that is safe to repeat is tried again; it doubles each time.
    public var retryDelay: Double
    public var attempts: Int

    public init(baseURL: String, clientKey: String, clientSecret: String, timeout: Double = 60,
                pollInterval: Double = 5, pollLimit: Double = 900, retryDelay: Double = 1, attempts: Int = 4) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base; self.clientKey = clientKey; self.clientSecret = clientSecret; self.timeout = timeout
        self.pollInterval = pollInterval; self.pollLimit = pollLimit; self.retryDelay = retryDelay; self.attempts = max(1, attempts)
    }

    /// The keys from `LULU_CLIENT_KEY` and `LULU_CLIENT_SECRET`, the sandbox unless `production`, or `baseURL` when given.
    public static func fromEnvironment(_ environment: [String: String], production: Bool, baseURL: String? = nil) -> LuluSettings {
        LuluSettings(baseURL: baseURL ?? (production ? Self.production : Self.sandbox),
                     clientKey: environment[keyVariable] ?? "", clientSecret: environment[secretVariable] ?? "")
    }

    public var environmentName: String {
        switch baseURL {
        case Self.production: "production"
        case Self.sandbox: "sandbox"
        default: baseURL
        }
    }

    public var hasKeys: Bool { !clientKey.isEmpty && !clientSecret.isEmpty }

    /// The secret webhooks are signed with (Lulu signs them with the API secret).
    public var webhookSecret: Data { Data(clientSecret.utf8) }

    /// Checked before any request: the address must be one the keys may go to, and the keys there.
    public func check(needKeys: Bool = true) throws(OrderError) {
        guard let url = URL(string: baseURL), let origin = Origin(url), url.query == nil else {
            throw OrderError(.invalidOptions, "lulu: --base-url \(baseURL) is not an http(s) address")
        }
        guard origin.mayCarryKey else {
            throw OrderError(.invalidOptions, "lulu: --base-url \(baseURL) is plain HTTP to another machine; the client key and secret are sent only "
                             + "over https (or plain http to this machine, e.g. http://127.0.0.1:PORT). Use an https:// address.")
        }
        if needKeys, !hasKeys {
            let missing = [clientKey.isEmpty ? Self.keyVariable : nil, clientSecret.isEmpty ? Self.secretVariable : nil].compactMap { $0 }
            throw OrderError(.invalidOptions, "no Lulu keys: set \(missing.joined(separator: " and ")) (from the API Keys page of "
                             + "\(baseURL == Self.production ? "developers.lulu.com" : "developers.sandbox.lulu.com"))")
        }
    }

    /// `text` with the keys and the token taken out, in every form a server may echo them.
    func redacted(_ text: String, token: String? = nil) -> String {
        var out = text
        for secret in [clientSecret, clientKey, token ?? "", basicCredential].sorted(by: { $0.count > $1.count }) where secret.count >= 8 {
            out = redact(out, key: secret)
        }
        return out
    }

    var basicCredential: String { Data("\(clientKey):\(clientSecret)".utf8).base64EncodedString() }

    func url(_ path: String, query: [(String, String)] = []) throws(OrderError) -> URL {
        var text = baseURL + path
        if !query.isEmpty {
            var c = URLComponents()
            c.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
            text += "?" + (c.percentEncodedQuery ?? "")
        }
        guard let url = URL(string: text) else { throw OrderError(.invalidOptions, "lulu: \(text) is not an address") }
        return url
    }
}
