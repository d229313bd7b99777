import Foundation
import CShim

/// HMAC-SHA-256 (RFC 2104): the service's signed file addresses and the printer's webhook signatures.
public enum HMAC {
    public static func sha256(key: Data, message: Data) -> Data {
        var mac = [UInt8](repeating: 0, count: 32)
        key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                shim_hmac_sha256(k.baseAddress, k.count, m.baseAddress, m.count, &mac)
            }
        }
        return Data(mac)
    }

    /// Lowercase hex, as most services print a signature.
    public static func sha256Hex(key: Data, message: Data) -> String {
        sha256(key: key, message: message).map { String(format: "%02x", $0) }.joined()
    }

    /// Compares in time that depends only on the lengths, so a caller cannot find a signature byte by byte.
    public static func same(_ a: Data, _ b: Data) -> Bool {
        let x = [UInt8](a), y = [UInt8](b)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return diff == 0
    }
}
