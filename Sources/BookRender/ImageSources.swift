import Foundation
import CGraphics
import CShim
import BookResolve
import BookLayout

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
}

/// For the PDF: JPEGs travel as their own bytes (cairo's JPEG mime data on an undecoded surface of
/// the right size), one object per distinct image through the unique-id mime type; everything else
/// is decoded and handed to cairo as pixels.
///
/// Only the last few images are kept. cairo holds its own reference to each surface until the
/// page that uses it is written, and remembers every unique id it has written for the whole
/// document, so a JPEG that comes back after being evicted is still stored once (the same bytes);
/// keeping them all would hold every image of the book until the PDF is finished.
final class PDFImageSources: ImageSources {
    private var cache = BoundedCache<(owner: AnyObject, surface: ImageSurface)>(limit: 64 << 20)
    var padsEdges: Bool { false }

    func surface(for box: ImageBox) throws -> ImageSurface {
        let asset = box.asset
        if let hit = cache[asset.id] { return hit.surface }
        let w = asset.info.pixelWidth, h = asset.info.pixelHeight
        let owner: AnyObject
        let s: ImageSurface
        let cost: Int
        if asset.passesThroughToPDF {
            let blank = try BlankSurface(width: w, height: h)
            let jpeg = asset.data
            try blank.attach(jpeg: jpeg, uniqueID: asset.id)
            owner = blank
            cost = jpeg.count
            s = ImageSurface(surface: blank.surface, pixelWidth: w, pixelHeight: h, storedWidth: w, storedHeight: h)
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
            cost = decoded.width * decoded.height * 4
            s = ImageSurface(surface: decoded.surface, pixelWidth: decoded.width, pixelHeight: decoded.height, storedWidth: w, storedHeight: h)
        }
        cache.insert((owner, s), for: asset.id, cost: cost)
        return s
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

/// An image surface that is never painted: cairo's PDF backend reads only its size and mime data.
/// Its pixel memory is an untouched anonymous mapping (see `shim_blank_surface`), so the kernel
/// backs none of it with RAM.
final class BlankSurface {
    let surface: OpaquePointer

    init(width: Int, height: Int) throws {
        // Not cairo_image_surface_create: its pixels come from calloc, which for a heap block
        // writes every byte, and cairo keeps the surfaces of a PDF until the document ends.
        guard let s = shim_blank_surface(Int32(width), Int32(height)) else {
            throw RenderError("cannot reserve a \(width)×\(height) image")
        }
        surface = s
    }

    func attach(jpeg: Data, uniqueID: String) throws {
        // Straight from the (mapped) file into cairo's copy, with no array in between.
        for (type, bytes) in [(CAIRO_MIME_TYPE_JPEG, jpeg), (CAIRO_MIME_TYPE_UNIQUE_ID, Data(uniqueID.utf8))] {
            let copy = malloc(max(bytes.count, 1))!
            bytes.withUnsafeBytes { if let base = $0.baseAddress { _ = memcpy(copy, base, bytes.count) } }
            let status = cairo_surface_set_mime_data(surface, type, copy.assumingMemoryBound(to: UInt8.self), UInt(bytes.count), free, copy)
            guard status == CAIRO_STATUS_SUCCESS else {
                free(copy)
                throw RenderError("cairo refused the image data: \(String(cString: cairo_status_to_string(status)))")
            }
        }
    }

    deinit { cairo_surface_destroy(surface) }
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
