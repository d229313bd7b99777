import Foundation
import CGraphics

/// An image's bytes, what its header says, and where it came from. Immutable, shared by every page
/// and output that draws it; `id` (SHA-256 of the bytes) dedups repeated images in the PDF.
public final class ImageAsset: Sendable {
    public let data: Data
    public let info: ImageInfo
    /// "images/fox.jpg" or "inline image at $.pages[3].image": what an error or report names.
    public let origin: String
    public let id: String

    public init(data: Data, info: ImageInfo, origin: String) {
        self.data = data
        self.info = info
        self.origin = origin
        self.id = ImageAsset.sha256(data)
    }

    /// JPEGs go into the PDF byte for byte, except CMYK/YCCK ones: cairo 1.16 writes those without
    /// a /Decode array, so Adobe's inverted CMYK would print as a negative. Those are decoded instead.
    public var passesThroughToPDF: Bool {
        info.format == .jpeg && (info.colorModel == .gray || info.colorModel == .rgb)
    }

    static func sha256(_ data: Data) -> String {
        data.withUnsafeBytes { raw -> String in
            guard let c = g_compute_checksum_for_data(G_CHECKSUM_SHA256, raw.bindMemory(to: guchar.self).baseAddress, gsize(raw.count))
            else { return "" }
            defer { g_free(c) }
            return String(cString: c)
        }
    }
}
