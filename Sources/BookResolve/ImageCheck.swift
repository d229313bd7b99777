import CShim
import Foundation
import BookModel

/// What makes a picture unusable, checked the same way for JPEG and PNG and by every command:
/// its header's size (resolving a book, before a byte of pixels is allocated) and its data
/// (`validate` decodes it as an export would, a row or a scaled-down picture at a time, so a
/// corrupt file is reported by the check and not only by the drawing).
public enum ImageCheck {
    /// cairo's image surfaces stop at this many pixels a side.
    public static let maxSide = Int(SHIM_IMAGE_MAX_DIMENSION)

    /// The size the header gives: each side 1…32767 pixels and the area within `maxPixels`.
    public static func dimensions(_ info: ImageInfo, maxPixels: Int) throws(ImageError) {
        let w = info.pixelWidth, h = info.pixelHeight
        guard w > 0, h > 0 else {
            throw ImageError(.invalid, "its header gives a size of \(w) × \(h) pixels; the file is damaged")
        }
        guard w <= maxSide, h <= maxSide else {
            throw ImageError(.tooLarge, "it is \(w) × \(h) pixels, more than \(maxSide) on a side; scale it down "
                + "(300 dpi at the page's size is all print needs)")
        }
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, pixels <= maxPixels else {
            throw ImageError(.tooLarge, "it is \(w) × \(h) pixels (\(megapixels(pixels))), more than the limit of "
                + "\(megapixels(maxPixels)); scale it down (300 dpi at the page's size is all print needs) "
                + "or raise the limit with --max-image-pixels")
        }
    }

    /// Decodes the whole picture without keeping it: every problem an export's decoding would
    /// meet (damaged compressed data, a CRC, fewer rows than the header says).
    public static func data(_ data: Data, info: ImageInfo) throws(ImageError) {
        var message = [CChar](repeating: 0, count: 256)
        switch info.format {
        case .png:
            let status = data.withUnsafeBytes { raw in
                message.withUnsafeMutableBufferPointer { text in
                    shim_png_verify(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, text.baseAddress, text.count)
                }
            }
            guard status == SHIM_PNG_OK else { throw ImageError.png(status: status, detail: ImageError.shimMessage(message)) }
        case .jpeg:
            // The smallest DCT scale: every coefficient is still decoded, an eighth of the pixels kept.
            var image = shim_jpeg_image(pixels: nil, stride: 0, width: 0, height: 0, scale_num: 0)
            let status = data.withUnsafeBytes { raw in
                message.withUnsafeMutableBufferPointer { text in
                    shim_jpeg_decode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, 1, 1, &image,
                                     text.baseAddress, text.count)
                }
            }
            free(image.pixels)
            guard status == SHIM_JPEG_OK else { throw ImageError.jpeg(status: status, detail: ImageError.shimMessage(message)) }
        }
    }

    static func megapixels(_ n: Int) -> String {
        n >= 1_000_000 ? "\(n / 1_000_000) megapixels" : "\(InputLimits.grouped(n)) pixels"
    }
}
