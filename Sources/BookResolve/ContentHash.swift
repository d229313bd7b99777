import Foundation
import CShim

/// XXH3-128 as 32 lowercase hex digits: an image's id, which dedups it in the PDF and keys its
/// decodes, and the digest of a PDF's content that its `/ID` is made from. Fed in parts.
/// Also the digest of the renderer's executable in batch fingerprints. SHA-256 stays where a
/// name must hold against someone forging it (the generation cache, the rest of a fingerprint);
/// here a collision could only mix up two pictures of the one book made to collide, and the
/// speed is what an export of 48 MB of JPEGs waits for.
public final class ContentHash {
    private var state: OpaquePointer?

    public init() { state = shim_xxh3_new() }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let state, let base = bytes.baseAddress else { return }
        shim_xxh3_update(state, base, bytes.count)
    }

    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The digest; the hasher takes no more input after this.
    public func finish() -> String {
        guard let state else { return "" }
        self.state = nil
        var hex = [CChar](repeating: 0, count: 33)
        shim_xxh3_finish(state, &hex)
        return String(decoding: hex.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { if state != nil { _ = finish() } }

    public static func hex(_ data: Data) -> String {
        let h = ContentHash()
        h.update(data)
        return h.finish()
    }

    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
