import Foundation
import BookBase
import CGraphics
import CShim

/// Pixels as straight (not premultiplied) 8-bit RGBA, rows top to bottom with no padding: the
/// layout pixelmatch works on. Comparisons are made on these decoded pixels, never on PNG bytes,
/// so two encoders' different compression of the same page compare equal.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RGBAImage needs width*height*4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = red; p[i + 1] = green; p[i + 2] = blue; p[i + 3] = alpha
                i += 4
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The colour at (x, y) as (red, green, blue, alpha).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    public mutating func setPixel(x: Int, y: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        let i = (y * width + x) * 4
        pixels[i] = red; pixels[i + 1] = green; pixels[i + 2] = blue; pixels[i + 3] = alpha
    }

    /// True when some pixel is not fully opaque.
    public var hasTranslucency: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }
}

/// A width and height in pixels.
public struct PixelSize: Sendable, Equatable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}

// MARK: - PNG

extension RGBAImage {
    /// Decodes any PNG libpng reads (palette, grey, alpha, tRNS, 16-bit, interlaced).
    public init(pngData data: Data, name: String = "PNG") throws(CompareError) {
        var message = [CChar](repeating: 0, count: 512)
        var width: Int32 = 0, height: Int32 = 0
        let sizeStatus = data.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                shim_png_rgba_size(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &width, &height,
                                   text.baseAddress, text.count)
            }
        }
        guard sizeStatus == SHIM_PNG_OK else {
            throw CompareError(.unreadable, "cannot read \(name): \(Self.text(message))")
        }
        let count = Int(width) * Int(height) * 4
        var status = Int32(SHIM_PNG_OK)
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = data.withUnsafeBytes { raw in
                message.withUnsafeMutableBufferPointer { text in
                    shim_png_rgba_decode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, buffer.baseAddress, count,
                                         nil, text.baseAddress, text.count)
                }
            }
            // On failure the bytes are garbage but initialized memory of a trivial type; the array is dropped.
            initialized = count
        }
        guard status == SHIM_PNG_OK else {
            throw CompareError(.unreadable, "cannot read \(name): \(Self.text(message))")
        }
        self.init(width: Int(width), height: Int(height), pixels: pixels)
    }

    public init(contentsOf url: URL) throws(CompareError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CompareError(.unreadable, "cannot read \(url.path): \(Self.reason(error))")
        }
        try self.init(pngData: data, name: url.path)
    }

    /// Writes an 8-bit PNG in place (RGB when every pixel is opaque, RGBA otherwise); callers that
    /// need the write to be atomic go through `AtomicFile`.
    public func writePNG(to url: URL) throws(CompareError) {
        guard width > 0, height > 0 else {
            throw CompareError(.writeFailed, "cannot write \(url.path): the image is empty")
        }
        var message = [CChar](repeating: 0, count: 512)
        let keepAlpha: Int32 = hasTranslucency ? 1 : 0
        let status = pixels.withUnsafeBufferPointer { p in
            message.withUnsafeMutableBufferPointer { text in
                shim_png_rgba_write(url.path, p.baseAddress, Int32(width), Int32(height), keepAlpha,
                                    text.baseAddress, text.count)
            }
        }
        guard status == SHIM_PNG_OK else {
            throw CompareError(.writeFailed, Self.text(message))
        }
    }

    static func text(_ message: [CChar]) -> String {
        message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static func reason(_ error: Error) -> String { AtomicOutput.reason(error) }
}

// MARK: - cairo

extension RGBAImage {
    /// The pixels of a cairo image surface (RGB24, or premultiplied ARGB32), un-premultiplied.
    public init(cairoSurface surface: OpaquePointer) throws(CompareError) {
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw CompareError(.invalidArgument, "not a usable cairo image surface")
        }
        cairo_surface_flush(surface)
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 else {
            throw CompareError(.invalidArgument, "only RGB24 and ARGB32 cairo surfaces can be read (format \(format.rawValue))")
        }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else {
            throw CompareError(.invalidArgument, "the cairo surface has no pixel data")
        }
        let opaque = format == CAIRO_FORMAT_RGB24
        let count = width * height * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            for y in 0..<height {
                // cairo stores each pixel as one native-endian 32-bit word.
                let row = UnsafeRawPointer(data + y * stride).bindMemory(to: UInt32.self, capacity: width)
                var o = y * width * 4
                for x in 0..<width {
                    let v = row[x]
                    var r = (v >> 16) & 0xFF, g = (v >> 8) & 0xFF, b = v & 0xFF
                    let a: UInt32 = opaque ? 255 : v >> 24
                    if a == 0 {
                        r = 0; g = 0; b = 0
                    } else if a != 255 {
                        r = min(255, (r * 255 + a / 2) / a)
                        g = min(255, (g * 255 + a / 2) / a)
                        b = min(255, (b * 255 + a / 2) / a)
                    }
                    out[o] = UInt8(r); out[o + 1] = UInt8(g); out[o + 2] = UInt8(b); out[o + 3] = UInt8(a)
                    o += 4
                }
            }
            initialized = count
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}
