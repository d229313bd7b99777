import Foundation
import CGraphics
import CShim

/// cairo image surfaces as JPEG files, through libjpeg.
enum JPEGEncoding {
    /// The bytes (from malloc: the caller frees them) and their count.
    static func encode(_ surface: OpaquePointer, quality: Int32) throws -> (UnsafeMutablePointer<UInt8>, Int) {
        cairo_surface_flush(surface)
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = shim_jpeg_encode(cairo_image_surface_get_data(surface), Int(cairo_image_surface_get_stride(surface)),
                                      cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface), quality,
                                      &out, &count, &message, message.count)
        guard status == 0, let out else { throw RenderError("cannot encode a picture as JPEG: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))") }
        return (out, count)
    }

    static func data(_ surface: OpaquePointer, quality: Int32) throws -> Data {
        let (bytes, count) = try encode(surface, quality: quality)
        return Data(bytesNoCopy: bytes, count: count, deallocator: .free)
    }
}
