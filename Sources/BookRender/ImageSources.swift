import Foundation
import CGraphics
import CShim
import BookResolve
import BookLayout
import BookConfig

/// A cairo surface for an image, in stored (unrotated) pixels; `scale` maps its pixels to stored ones
/// when it was decoded smaller than stored.
struct ImageSurface {
    let surface: OpaquePointer
    let pixelWidth: Int
    let pixelHeight: Int
    let storedWidth: Int
    let storedHeight: Int
}

protocol ImageSources: AnyObject {
    func surface(for box: ImageBox) throws -> ImageSurface
    /// Whether the drawer should pad the image's edge (raster) or leave it as is (PDF pass-through).
    var padsEdges: Bool { get }
    /// Whether a reader may smooth the pictures when it enlarges them. Not in a PDF/X file, which
    /// forbids it: there cairo writes `/Interpolate false`, and no picture needs writing again to
    /// take the flag away.
    var interpolates: Bool { get }
}

extension ImageSources {
    var interpolates: Bool { true }
}

/// For the PDF: JPEGs travel as their own bytes (cairo's JPEG mime data on a 1 × 1 carrier, see
/// `JPEGCarrier`), one object per distinct image through the unique-id mime type. A CMYK JPEG in a
/// file that is not CMYK cannot (see `ImageAsset.passesThroughToPDF`): it goes in as an RGB JPEG
/// made of its decoded pixels at the print quality, a photograph's compression kept rather than
/// its pixels stored without loss at ten times the size. Everything else (PNGs) is decoded and
/// handed to cairo as pixels, kept without loss as its author made it.
///
/// Nothing is kept beyond the image in hand: cairo holds its own reference to each surface until
/// the page that uses it is written, and remembers every unique id it has written for the whole
/// document, so a JPEG that comes back on a later page is still stored once (the same object).
/// Keeping images here would only hold the book's pictures in memory until the PDF is finished.
final class PDFImageSources: ImageSources {
    private let sink: PDFSink
    /// For a CMYK file: the pictures go in as CMYK JPEGs.
    private let cmyk: CMYKPictures?
    private var last: (id: String, owner: AnyObject, surface: ImageSurface)?
    var padsEdges: Bool { false }
    var interpolates: Bool { cmyk == nil }

    init(sink: PDFSink, cmyk: CMYKPictures? = nil) { self.sink = sink; self.cmyk = cmyk }

    func surface(for box: ImageBox) throws -> ImageSurface {
        let asset = box.asset
        if let last, last.id == asset.id { return last.surface }
        let w = asset.info.pixelWidth, h = asset.info.pixelHeight
        let owner: AnyObject
        let s: ImageSurface
        if let cmyk, CMYKPictures.converts(asset) {
            let carrier = try JPEGCarrier()
            let converted = try cmyk.jpeg(for: asset)
            try carrier.attach(cmykJPEG: converted.bytes, id: converted.id, sink: sink)
            owner = carrier
            s = ImageSurface(surface: carrier.surface, pixelWidth: 1, pixelHeight: 1, storedWidth: w, storedHeight: h)
        } else if asset.passesThroughToPDF {
            let carrier = try JPEGCarrier()
            try carrier.attach(jpeg: asset, sink: sink)
            owner = carrier
            s = ImageSurface(surface: carrier.surface, pixelWidth: 1, pixelHeight: 1, storedWidth: w, storedHeight: h)
        } else if asset.info.format == .jpeg {
            let carrier = try JPEGCarrier()
            try carrier.attach(jpeg: try Self.rgbJPEG(asset), sink: sink)
            owner = carrier
            s = ImageSurface(surface: carrier.surface, pixelWidth: 1, pixelHeight: 1, storedWidth: w, storedHeight: h)
        } else {
            let decoded = try ImageDecoder.decode(asset.data, info: asset.info)
            let id = Array(asset.id.utf8)
            id.withUnsafeBufferPointer { buf in
                let copy = malloc(buf.count)!
                memcpy(copy, buf.baseAddress!, buf.count)
                cairo_surface_set_mime_data(decoded.surface, CAIRO_MIME_TYPE_UNIQUE_ID, copy.assumingMemoryBound(to: UInt8.self),
                                            UInt(buf.count), free, copy)
            }
            owner = decoded
            s = ImageSurface(surface: decoded.surface, pixelWidth: decoded.width, pixelHeight: decoded.height, storedWidth: w, storedHeight: h)
        }
        last = (asset.id, owner, s)
        return s
    }
}

extension PDFImageSources {
    /// A CMYK or YCCK JPEG as a baseline RGB JPEG of its decoded pixels, at full size.
    static func rgbJPEG(_ asset: ImageAsset) throws -> ImageAsset {
        let decoded = try ImageDecoder.decode(asset.data, info: asset.info)
        let bytes = try JPEGEncoding.data(decoded.surface, quality: Int32(PrintProfile.defaultJPEGQuality))
        var info = asset.info
        info.format = .jpeg; info.components = 3; info.colorModel = .rgb; info.hasAlpha = false
        info.bitDepth = 8; info.progressive = false; info.adobeInverted = false
        return ImageAsset(data: bytes, info: info, origin: asset.origin)
    }
}

/// Keeps the most recently used values up to a total cost (bytes), always at least the newest one.
struct BoundedCache<Value> {
    let limit: Int
    private var entries: [String: (value: Value, cost: Int, used: Int)] = [:]
    private var total = 0
    private var clock = 0

    init(limit: Int) { self.limit = limit }

    subscript(key: String) -> Value? {
        mutating get {
            guard var e = entries[key] else { return nil }
            clock += 1
            e.used = clock
            entries[key] = e
            return e.value
        }
    }

    mutating func insert(_ value: Value, for key: String, cost: Int) {
        clock += 1
        if let old = entries[key] { total -= old.cost }
        entries[key] = (value, cost, clock)
        total += cost
        while total > limit, entries.count > 1, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
            entries[oldest.key] = nil
            total -= oldest.value.cost
        }
    }
}

/// What carries a JPEG to cairo's PDF backend: a 1 × 1 image surface with the file's bytes as
/// mime data. cairo writes those bytes as the image XObject (its size comes from the JPEG header)
/// and places the XObject by the surface's extents, so the drawer scales the one pixel to the
/// picture's frame. A carrier the JPEG's size would cost its pixels twice over in cairo 1.16: the
/// surface itself, and the copy cairo makes of it for the page's snapshot when it is destroyed.
final class JPEGCarrier {
    let surface: OpaquePointer

    init() throws {
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError("cannot create an image surface")
        }
        surface = s
    }

    /// The JPEG's bytes go to cairo in a buffer of their own, which cairo frees with the surface's
    /// last snapshot; until then `sink` knows the buffer as this image. A file's JPEG is given as
    /// its header with the file behind it (`JPEGFileBytes`), an inline one as its bytes.
    func attach(jpeg asset: ImageAsset, sink: PDFSink) throws {
        let buffer: MimeBuffer
        if let file = JPEGFileBytes(asset, space: sink.headerSpace) {
            buffer = MimeBuffer(file: file, sink: sink, id: asset.id, origin: asset.origin)
        } else if asset.isFile {
            throw ImageError(.truncated, "\(asset.origin) could not be read again, or was replaced or changed size, while the book was rendering; render it again once nothing is changing the book's folder")
        } else if let bytes = asset.inlineCopy() {
            buffer = MimeBuffer(taking: bytes, sink: sink, id: asset.id)
        } else {
            throw ImageError(.truncated, "\(asset.origin) could not be copied for the PDF")
        }
        try set(CAIRO_MIME_TYPE_JPEG, buffer)
        try set(CAIRO_MIME_TYPE_UNIQUE_ID, MimeBuffer(copying: Data(asset.id.utf8)))
    }

    /// A CMYK JPEG as `CMYKPictures` writes it (Adobe's marker, values inverted) in a buffer from
    /// `malloc` (`id`: its content hash), which cairo frees.
    func attach(cmykJPEG bytes: UnsafeMutableRawBufferPointer, id: String, sink: PDFSink) throws {
        try set(CAIRO_MIME_TYPE_JPEG, MimeBuffer(taking: bytes, sink: sink, id: id, adobeCMYK: true))
        try set(CAIRO_MIME_TYPE_UNIQUE_ID, MimeBuffer(copying: Data(id.utf8)))
    }

    private func set(_ type: UnsafePointer<CChar>, _ buffer: MimeBuffer) throws {
        let closure = Unmanaged.passRetained(buffer).toOpaque()
        let status = cairo_surface_set_mime_data(surface, type, buffer.bytes.assumingMemoryBound(to: UInt8.self), UInt(buffer.count),
                                                 { Unmanaged<MimeBuffer>.fromOpaque($0!).release() }, closure)
        guard status == CAIRO_STATUS_SUCCESS else {
            Unmanaged<MimeBuffer>.fromOpaque(closure).release()
            throw RenderError("cairo refused the image data: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    deinit { cairo_surface_destroy(surface) }
}

/// Bytes handed to cairo as mime data, freed when cairo lets go of them.
private final class MimeBuffer {
    let bytes: UnsafeMutableRawPointer
    let count: Int
    private weak var sink: PDFSink?
    /// Set when the bytes stand for a file (and are not freed here).
    private let file: JPEGFileBytes?

    /// Owns `buffer` (from malloc) from now on.
    /// `adobeCMYK`: the bytes are a CMYK JPEG as `CMYKPictures` writes them (see `PDFSink.register`).
    init(taking buffer: UnsafeMutableRawBufferPointer, sink: PDFSink? = nil, id: String = "", adobeCMYK: Bool = false) {
        bytes = buffer.baseAddress ?? malloc(1)!
        count = buffer.count
        file = nil
        self.sink = sink
        sink?.register(bytes, count: count, id: id, adobeCMYK: adobeCMYK)
    }

    init(file: JPEGFileBytes, sink: PDFSink, id: String, origin: String) {
        bytes = file.bytes
        count = file.count
        self.file = file
        self.sink = sink
        sink.register(bytes, count: count, id: id, source: (file.descriptor, origin))
    }

    convenience init(copying data: Data) {
        let buffer = UnsafeMutableRawBufferPointer(start: malloc(max(data.count, 1))!, count: data.count)
        data.withUnsafeBytes { if let base = $0.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: data.count) } }
        self.init(taking: buffer)
    }

    deinit {
        sink?.forget(bytes)
        if file == nil { free(bytes) }
    }
}

/// For PNG pages: each image decoded once per size the pages need, at the smallest libjpeg scale
/// that still covers the drawn size, and reused across pages by content hash while it is among
/// the recently used (a full-bleed page at 150 dpi is about 7 MB of pixels, so keeping every one
/// would grow with the book).
final class RasterImageSources: ImageSources {
    let dpi: Double
    private var cache = BoundedCache<(owner: DecodedImage, surface: ImageSurface)>(limit: 96 << 20)
    var padsEdges: Bool { true }

    init(dpi: Double) { self.dpi = dpi }

    func surface(for box: ImageBox) throws -> ImageSurface {
        let info = box.asset.info
        let rotated = info.orientation >= 5
        let needW = Int((box.frame.width * dpi / 72).rounded(.up))
        let needH = Int((box.frame.height * dpi / 72).rounded(.up))
        let (minW, minH) = rotated ? (needH, needW) : (needW, needH)
        let key = "\(box.asset.id)/\(minW)x\(minH)"
        if let hit = cache[key] { return hit.surface }
        let decoded = try ImageDecoder.decode(box.asset.data, info: info, minWidth: minW, minHeight: minH)
        let s = ImageSurface(surface: decoded.surface, pixelWidth: decoded.width, pixelHeight: decoded.height,
                             storedWidth: info.pixelWidth, storedHeight: info.pixelHeight)
        cache.insert((decoded, s), for: key, cost: decoded.width * decoded.height * 4)
        return s
    }
}

public struct RenderError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
