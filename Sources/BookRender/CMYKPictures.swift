import Foundation
import BookBase
import BookResolve
import CGraphics
import CShim

/// A book's pictures in the printer's CMYK, for a PDF/X file: each decoded once, converted through
/// the press profile (`CMYKTransform`) and stored as a CMYK JPEG at the profile's quality (YCCK with
/// Adobe's marker, as Adobe writes them), which the PDF then carries byte for byte as DeviceCMYK
/// (with the /Decode array Adobe's inverted values need, see `CMYKConverter`). The file itself is
/// decoded and measured, and made again held lower where compression pushed a pixel over the ink
/// limit, so no pixel of it carries more than `inkLimit`.
///
/// A conversion is kept in the user's cache (`cmyk-pictures/`), named by the picture's content
/// hash, the press profile's hash, the quality and `version`, so a re-export, a batch of books
/// sharing pictures or a service's next job converts nothing again. An entry is read once, as its
/// picture is drawn, and used only when its own hash holds (`UserCache.readOwned`) and its JPEG
/// header matches the picture; anything else is converted again and written over it.
///
/// Pictures that stay as they are: grey JPEGs (DeviceGray prints on the black plate) and PNGs
/// with transparency, which the drawing flattens and the PDF's conversion turns to CMYK pixels.
public final class CMYKPictures: @unchecked Sendable {
    /// Changes when the conversion's output would: the cache then holds nothing for this build.
    public static let version = 1

    let transform: CMYKTransform
    let quality: Int
    /// Percent of total ink no pixel may pass; nil for none.
    let inkLimit: Double?
    let folder: URL

    public init(transform: CMYKTransform, quality: Int, inkLimit: Double?, folder: URL = UserCache.folder("cmyk-pictures")) {
        self.transform = transform
        self.quality = quality
        self.inkLimit = inkLimit
        self.folder = folder
    }

    /// Whether `asset` is converted (rather than drawn as it is).
    public static func converts(_ asset: ImageAsset) -> Bool {
        switch asset.info.format {
        case .jpeg: asset.info.colorModel != .gray
        case .png: !asset.info.hasAlpha
        }
    }

    /// The cache file of `asset`'s conversion.
    func entry(for asset: ImageAsset) -> URL {
        let key = ContentHash.hex("\(asset.id)\n\(transform.profileID)\n\(quality)\n\(inkLimit ?? 0)\n\(Self.version)")
        return folder.appendingPathComponent(key + ".jpg")
    }

    static let magic = "bookrender cmyk picture 1"

    /// Converts the pictures of `assets` not in the cache yet, side by side on `threads` threads.
    /// An entry is only looked for here; it is read, and its hash checked, once, when its picture
    /// is drawn (`jpeg(for:)`), which converts it then if it no longer holds.
    public func prepare(_ assets: [ImageAsset], threads: Int) throws {
        var seen = Set<String>()
        let missing = assets.filter {
            Self.converts($0) && seen.insert($0.id).inserted && !FileManager.default.fileExists(atPath: entry(for: $0).path)
        }
        guard !missing.isEmpty else { return }
        let failures = Failures()
        let lanes = max(1, min(threads, missing.count))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for i in stride(from: lane, to: missing.count, by: lanes) where failures.first == nil {
                do { free(try convert(missing[i]).bytes.baseAddress) } catch { failures.add(error) }
            }
        }
        if let error = failures.first { throw error }
    }

    /// `asset` as a CMYK JPEG, from the cache or converted now: its bytes in a buffer from
    /// `malloc` that the caller owns (cairo, which frees it), and their content hash.
    func jpeg(for asset: ImageAsset) throws -> (bytes: UnsafeMutableRawBufferPointer, id: String) {
        if let entry = UserCache.readOwned(entry(for: asset), magic: Self.magic) {
            if Self.fits(UnsafeRawBufferPointer(entry.bytes), asset) { return (entry.bytes, entry.hash) }
            free(entry.bytes.baseAddress)
        }
        return try convert(asset)
    }

    /// `jpeg(for:)` as a picture of its own.
    func asset(for asset: ImageAsset) throws -> ImageAsset {
        let converted = try jpeg(for: asset)
        var info = asset.info
        info.format = .jpeg; info.components = 4; info.colorModel = .cmyk; info.hasAlpha = false
        info.bitDepth = 8; info.progressive = false; info.adobeInverted = true
        let data = Data(bytesNoCopy: converted.bytes.baseAddress!, count: converted.bytes.count, deallocator: .free)
        return ImageAsset(data: data, info: info, origin: asset.origin)
    }

    /// Whether `bytes` are a CMYK JPEG the picture's size.
    private static func fits(_ bytes: UnsafeRawBufferPointer, _ original: ImageAsset) -> Bool {
        var header = shim_jpeg_info()
        let status = shim_jpeg_read_info(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &header, nil, 0)
        return status == SHIM_JPEG_OK && header.components == 4 && Int(header.width) == original.info.pixelWidth
            && Int(header.height) == original.info.pixelHeight
    }

    private func convert(_ asset: ImageAsset) throws -> (bytes: UnsafeMutableRawBufferPointer, id: String) {
        let data = asset.readBytes()
        guard !data.isEmpty else {
            throw ImageError(.truncated, "\(asset.origin) could not be read again, or was replaced or changed size, while the book was rendering; render it again once nothing is changing the book's folder")
        }
        let decoded: DecodedImage
        do { decoded = try ImageDecoder.decode(data, info: asset.info) } catch {
            throw ImageError(error.kind, "\(asset.origin) is not a usable image: \(error.message)")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        cairo_surface_flush(decoded.surface)
        let status = shim_cmyk_jpeg_encode(transform.pointer, cairo_image_surface_get_data(decoded.surface),
                                           Int(cairo_image_surface_get_stride(decoded.surface)), Int32(decoded.width),
                                           Int32(decoded.height), Int32(quality), inkLimit ?? 0, &out, &size, &message, message.count)
        guard status == SHIM_JPEG_OK, let out else {
            throw RenderError("cannot convert \(asset.origin) to CMYK: \(String(cString: message))")
        }
        let bytes = UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(out), count: size)
        guard Self.fits(UnsafeRawBufferPointer(bytes), asset) else {
            free(out)
            throw RenderError("the CMYK JPEG made of \(asset.origin) does not read back")
        }
        let body = Data(bytesNoCopy: out, count: size, deallocator: .none)
        UserCache.write(body, to: entry(for: asset), magic: Self.magic)
        return (bytes, ContentHash.hex(body))
    }

    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [any Error] = []
        var first: (any Error)? { lock.withLock { errors.first } }
        func add(_ error: any Error) { lock.withLock { errors.append(error) } }
    }
}
