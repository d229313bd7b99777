import CGraphics
import CShim

/// Writes cairo image surfaces as PNG through libpng, because cairo's own writer has no pHYs
/// chunk: without it viewers and print tools take a 150-dpi page for 72 dpi.
public enum PNGWriter {
    /// Writes 8-bit RGB (RGBA for an ARGB32 surface) with `dpi` in pHYs and no timestamp, so
    /// the same pixels always give the same file. Writes `path` in place: callers that need an
    /// atomic result pass a temporary path and rename it, and `name` the file it becomes, which
    /// messages name. Throws `OutputError`.
    public static func write(surface: OpaquePointer, to path: String, as name: String? = nil, dpi: Double) throws {
        let name = name ?? path
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE else {
            throw OutputError("cannot write \(name): the surface is not an image surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw OutputError("cannot write \(name): the surface is in error (\(String(cString: cairo_status_to_string(status))))")
        }
        guard dpi.isFinite, dpi > 0 else {
            throw OutputError("cannot write \(name): resolution must be a positive number of dpi, not \(dpi)")
        }
        // Pending drawing may still sit in cairo's buffers until flushed.
        cairo_surface_flush(surface)
        let format = cairo_image_surface_get_format(surface)
        let hasAlpha: Bool
        switch format {
        case CAIRO_FORMAT_RGB24: hasAlpha = false
        case CAIRO_FORMAT_ARGB32: hasAlpha = true
        default:
            throw OutputError("cannot write \(name): only RGB24 and ARGB32 surfaces can be written (format \(format.rawValue))")
        }
        guard let pixels = cairo_image_surface_get_data(surface) else {
            throw OutputError("cannot write \(name): the surface has no pixel data")
        }
        var message = [CChar](repeating: 0, count: 512)
        let result = message.withUnsafeMutableBufferPointer { text in
            shim_png_write(path, pixels, cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface),
                           Int(cairo_image_surface_get_stride(surface)), hasAlpha ? 1 : 0, dpi, text.baseAddress, text.count)
        }
        guard result == SHIM_PNG_OK else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw OutputError("cannot write \(name): \(detail)")
        }
    }
}
