import BookResolve
import CGraphics
import CShim
import Foundation

/// Decodes JPEG and PNG data straight into cairo image surfaces (no intermediate copy).
public enum ImageDecoder {
    /// `info` is the image's probe result. `minWidth`/`minHeight` are in stored (unrotated)
    /// pixels: a JPEG is decoded at the smallest DCT scale (1/8…8/8) still at least that large,
    /// so a 150-dpi preview never pays for a full 300-dpi scan. 0 means no minimum; both 0 give
    /// full size. PNGs are always decoded at full size.
    public static func decode(_ data: Data, info: ImageInfo, minWidth: Int = 0, minHeight: Int = 0) throws(ImageError) -> DecodedImage {
        switch info.format {
        case .jpeg: try decodeJPEG(data, info: info, minWidth: minWidth, minHeight: minHeight)
        case .png: try decodePNG(data, info: info)
        }
    }

    private static func decodeJPEG(_ data: Data, info: ImageInfo, minWidth: Int, minHeight: Int) throws(ImageError) -> DecodedImage {
        var width: Int32 = 0, height: Int32 = 0
        shim_jpeg_scale_for(Int32(clamping: info.pixelWidth), Int32(clamping: info.pixelHeight),
                            Int32(clamping: minWidth), Int32(clamping: minHeight), &width, &height)
        let surface = try makeSurface(CAIRO_FORMAT_RGB24, width: width, height: height)
        var image = shim_jpeg_image(pixels: cairo_image_surface_get_data(surface),
                                    stride: Int(cairo_image_surface_get_stride(surface)),
                                    width: width, height: height, scale_num: 0)
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                shim_jpeg_decode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count,
                                 Int32(clamping: minWidth), Int32(clamping: minHeight), &image, text.baseAddress, text.count)
            }
        }
        guard status == SHIM_JPEG_OK else {
            cairo_surface_destroy(surface)
            throw ImageError.jpeg(status: status, detail: ImageError.shimMessage(message))
        }
        cairo_surface_mark_dirty(surface)
        return DecodedImage(surface: surface, width: Int(width), height: Int(height), hasAlpha: false)
    }

    private static func decodePNG(_ data: Data, info: ImageInfo) throws(ImageError) -> DecodedImage {
        guard info.pixelWidth <= Int(Int32.max), info.pixelHeight <= Int(Int32.max) else {
            throw ImageError(.tooLarge, "PNG is \(info.pixelWidth)×\(info.pixelHeight), larger than 32767 pixels on a side")
        }
        let width = Int32(info.pixelWidth), height = Int32(info.pixelHeight)
        let surface = try makeSurface(info.hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width: width, height: height)
        var image = shim_png_image(pixels: cairo_image_surface_get_data(surface),
                                   stride: Int(cairo_image_surface_get_stride(surface)),
                                   width: width, height: height, has_alpha: info.hasAlpha ? 1 : 0)
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                shim_png_decode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &image,
                                text.baseAddress, text.count)
            }
        }
        guard status == SHIM_PNG_OK else {
            cairo_surface_destroy(surface)
            throw ImageError.png(status: status, detail: ImageError.shimMessage(message))
        }
        cairo_surface_mark_dirty(surface)
        return DecodedImage(surface: surface, width: Int(width), height: Int(height), hasAlpha: info.hasAlpha)
    }

    private static func makeSurface(_ format: cairo_format_t, width: Int32, height: Int32) throws(ImageError) -> OpaquePointer {
        guard width <= SHIM_IMAGE_MAX_DIMENSION, height <= SHIM_IMAGE_MAX_DIMENSION else {
            throw ImageError(.tooLarge, "image would decode to \(width)×\(height), larger than 32767 pixels on a side")
        }
        // cairo returns an error surface rather than NULL; its status says why.
        let surface = cairo_image_surface_create(format, width, height)!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            let reason = String(cString: cairo_status_to_string(status))
            throw ImageError(status == CAIRO_STATUS_NO_MEMORY ? .outOfMemory : .invalid,
                             "cannot make a \(width)×\(height) image surface: \(reason)")
        }
        return surface
    }
}
