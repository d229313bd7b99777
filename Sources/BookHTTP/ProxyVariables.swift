import Foundation
import AsyncHTTPClient

/// The proxy the usual environment variables name, as curl and most tools read them:
/// `https_proxy` (or `HTTPS_PROXY`), else `http_proxy` (or `HTTP_PROXY`), an `http://host:port`
/// proxy spoken to with CONNECT. `no_proxy` is honoured for loopback only, which is all a
/// provider's address can be besides a real one: loopback servers are never proxied.
public struct ProxyVariables {
    public var proxy: AsyncHTTPClient.HTTPClient.Configuration.Proxy?

    public init(_ environment: [String: String]) {
        let names = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"]
        guard let text = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }),
              let url = URL(string: text.contains("://") ? text : "http://" + text), let host = url.host else { return }
        proxy = .server(host: host, port: url.port ?? 80)
    }
}
