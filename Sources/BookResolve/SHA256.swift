import Foundation
import CShim

/// SHA-256 as lowercase hex: the generation cache and batch fingerprints. Fed in parts,
/// so a large file can be hashed block by block.
public final class SHA256 {
    private var state: OpaquePointer?

    public init() { state = shim_sha256_new() }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let state, let base = bytes.baseAddress else { return }
        shim_sha256_update(state, base, bytes.count)
    }

    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The digest; the hasher takes no more input after this.
    public func finish() -> String {
        guard let state else { return "" }
        self.state = nil
        var hex = [CChar](repeating: 0, count: 65)
        shim_sha256_finish(state, &hex)
        return String(decoding: hex.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { if state != nil { _ = finish() } }

    public static func hex(_ data: Data) -> String {
        let h = SHA256()
        h.update(data)
        return h.finish()
    }

    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
