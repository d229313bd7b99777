import Foundation

/// Where a key may travel: only to the origin the user configured, and in clear text only to this
/// machine. A key sent once over plain HTTP or to a host that merely redirected there is a key to revoke.
public struct Origin: Equatable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return (scheme == "https" && port == 443) || (scheme == "http" && port == 80) ? "\(scheme)://\(h)" : "\(scheme)://\(h):\(port)"
    }

    /// Names and addresses that cannot leave the machine: `localhost`, 127.0.0.0/8, ::1.
    public var isLoopback: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        return false
    }

    /// Keys go over TLS, or in clear text to this machine only (test servers, a local proxy).
    public var mayCarryKey: Bool { scheme == "https" || isLoopback }
}
