import Foundation
import CGraphics

/// SHA-256 through glib, which the graphics stack already links, so no crypto package is needed.
enum Digest {
    static func sha256(_ data: Data) -> String {
        data.withUnsafeBytes { raw -> String in
            guard let c = g_compute_checksum_for_data(G_CHECKSUM_SHA256, raw.bindMemory(to: guchar.self).baseAddress, gsize(raw.count))
            else { return "" }
            defer { g_free(c) }
            return String(cString: c)
        }
    }

    static func sha256(_ text: String) -> String { sha256(Data(text.utf8)) }
}
