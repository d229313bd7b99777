import Foundation
import BookHTTP

extension ProviderSettings {
    /// Checked before any request: the configured address must be one a key may go to.
    public func checkKeyTransport() throws {
        guard apiKey.isEmpty == false else { return }
        guard let url = URL(string: baseURL), let origin = Origin(url) else {
            throw IllustrateError("\(name.rawValue): --base-url \(baseURL) is not an http(s) address", kind: .invalidOptions)
        }
        guard origin.mayCarryKey else {
            throw IllustrateError("\(name.rawValue): --base-url \(baseURL) is plain HTTP to another machine; the API key is sent only over "
                                  + "https (or plain http to this machine, e.g. http://127.0.0.1:PORT). Use an https:// address.", kind: .invalidOptions)
        }
    }
}
