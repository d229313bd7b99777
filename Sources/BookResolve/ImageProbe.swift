import CShim
import Foundation

/// Reads what an image is (format, size, colour model, orientation) from its headers.
///
/// It runs on every image of every export, so it decodes no pixels; but it does make sure the
/// file is complete (a JPEG's end-of-image marker, a PNG's IEND chunk), because a half-copied
/// photo must be reported, not printed half grey.
public enum ImageProbe {
    public static func probe(_ data: Data) throws(ImageError) -> ImageInfo {
        let result: Result<ImageInfo, ImageError> = data.withUnsafeBytes { raw in
            if raw.count >= 3, raw[0] == 0xFF, raw[1] == 0xD8, raw[2] == 0xFF { return probeJPEG(raw) }
            if raw.count >= 8, raw.prefix(8).elementsEqual(pngSignature) { return probePNG(raw) }
            return .failure(ImageError(.notAnImage, unrecognized(raw)))
        }
        return try result.get()
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // MARK: JPEG

    /// A JPEG from its header alone (SOI to the first scan, see `JPEGHeader`), for a file whose
    /// last two bytes are the end-of-image marker: what `probe` would say of the whole file.
    public static func probeJPEG(header: UnsafeRawBufferPointer) throws(ImageError) -> ImageInfo {
        try probeJPEG(header, fileEndsWithEndOfImage: true).get()
    }

    /// `fileEndsWithEndOfImage` nil: `raw` is the whole file, which says so itself.
    private static func probeJPEG(_ raw: UnsafeRawBufferPointer, fileEndsWithEndOfImage: Bool? = nil) -> Result<ImageInfo, ImageError> {
        var header = shim_jpeg_info()
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { text in
            shim_jpeg_read_info(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &header,
                                text.baseAddress, text.count)
        }
        guard status == SHIM_JPEG_OK else {
            return .failure(ImageError.jpeg(status: status, detail: ImageError.shimMessage(message)))
        }
        let segments = JPEGSegments(raw)
        guard fileEndsWithEndOfImage ?? (segments.endsWithEndOfImage || segments.findsEndOfImage) else {
            return .failure(ImageError(.truncated, "truncated JPEG (no end-of-image marker)"))
        }
        let model: ImageInfo.ColorModel
        switch Int(header.color_space) {
        case SHIM_JPEG_CS_GRAY: model = .gray
        case SHIM_JPEG_CS_RGB, SHIM_JPEG_CS_YCBCR: model = .rgb
        case SHIM_JPEG_CS_CMYK: model = .cmyk
        case SHIM_JPEG_CS_YCCK: model = .ycck
        default:
            return .failure(ImageError(.invalid, "JPEG with \(header.components) components in a colour space that is not grey, RGB or CMYK"))
        }
        return .success(ImageInfo(
            format: .jpeg, pixelWidth: Int(header.width), pixelHeight: Int(header.height),
            components: Int(header.components), colorModel: model, hasAlpha: false, bitDepth: Int(header.bit_depth),
            progressive: header.progressive != 0,
            adobeInverted: header.adobe_marker != 0 && (model == .cmyk || model == .ycck),
            orientation: segments.orientation ?? 1))
    }

    // MARK: PNG

    /// Walks the chunk list (lengths only, no CRCs or inflation): a chunk running past the end
    /// or a missing IEND is a truncated file.
    private static func probePNG(_ raw: UnsafeRawBufferPointer) -> Result<ImageInfo, ImageError> {
        var offset = 8
        var ihdr: (width: Int, height: Int, depth: Int, colorType: Int, interlaced: Bool)?
        var transparency = false, sawImageData = false
        var orientation: Int?
        while true {
            guard offset + 8 <= raw.count else {
                return .failure(ImageError(.truncated, "truncated PNG (no IEND chunk)"))
            }
            let length = bigEndian32(raw, offset)
            let type = String(decoding: raw[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= raw.count else {
                return .failure(ImageError(.truncated, "truncated PNG (the \(type) chunk runs past the end of the file)"))
            }
            let body = UnsafeRawBufferPointer(rebasing: raw[(offset + 8)..<(offset + 8 + length)])
            if ihdr == nil && type != "IHDR" {
                return .failure(ImageError(.invalid, "PNG does not start with an IHDR chunk"))
            }
            switch type {
            case "IHDR":
                guard length == 13 else { return .failure(ImageError(.invalid, "PNG IHDR chunk has the wrong length")) }
                ihdr = (bigEndian32(body, 0), bigEndian32(body, 4), Int(body[8]), Int(body[9]), body[12] == 1)
            case "tRNS": transparency = true
            case "IDAT": sawImageData = true
            case "eXIf": orientation = orientation ?? ExifOrientation.orientation(tiff: body)
            case "IEND":
                guard let ihdr else { return .failure(ImageError(.invalid, "PNG has no IHDR chunk")) }
                guard sawImageData else { return .failure(ImageError(.invalid, "PNG has no image data (IDAT chunk)")) }
                return pngInfo(width: ihdr.width, height: ihdr.height, depth: ihdr.depth, colorType: ihdr.colorType,
                               interlaced: ihdr.interlaced, transparency: transparency, orientation: orientation ?? 1)
            default: break
            }
            offset += 12 + length
        }
    }

    private static func pngInfo(width: Int, height: Int, depth: Int, colorType: Int, interlaced: Bool,
                                transparency: Bool, orientation: Int) -> Result<ImageInfo, ImageError> {
        let allowedDepths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowedDepths[colorType], depths.contains(depth) else {
            return .failure(ImageError(.invalid, "PNG header is invalid (colour type \(colorType) with bit depth \(depth))"))
        }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            return .failure(ImageError(.invalid, "PNG header is invalid (size \(width)×\(height))"))
        }
        let hasAlpha = colorType == 4 || colorType == 6 || transparency
        let colorChannels = colorType == 0 || colorType == 4 ? 1 : 3
        return .success(ImageInfo(
            format: .png, pixelWidth: width, pixelHeight: height, components: colorChannels + (hasAlpha ? 1 : 0),
            colorModel: colorChannels == 1 ? .gray : .rgb, hasAlpha: hasAlpha, bitDepth: depth,
            progressive: interlaced, adobeInverted: false, orientation: orientation))
    }

    // MARK: Anything else

    /// Names the formats people actually hand in by mistake, so the message says what to do.
    private static func unrecognized(_ raw: UnsafeRawBufferPointer) -> String {
        guard !raw.isEmpty else { return "not a JPEG or PNG (the data is empty)" }
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return raw.count >= offset + bytes.count && raw[offset..<(offset + bytes.count)].elementsEqual(bytes)
        }
        let head = String(decoding: raw.prefix(64), as: UTF8.self).lowercased()
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let kind: String?
        if starts("GIF87a") || starts("GIF89a") { kind = "a GIF image" }
        else if starts("RIFF") && starts("WEBP", at: 8) { kind = "a WebP image" }
        else if starts("ftyp", at: 4) && (starts("avif", at: 8) || starts("avis", at: 8)) { kind = "an AVIF image" }
        else if starts("ftyp", at: 4) { kind = "a HEIC/HEIF image" }
        else if starts("II*\0") || starts("MM\0*") { kind = "a TIFF image" }
        else if starts("BM") { kind = "a BMP image" }
        else if starts("%PDF") { kind = "a PDF document" }
        else if head.hasPrefix("<svg") || (head.hasPrefix("<?xml") && head.contains("<svg")) { kind = "an SVG drawing" }
        else if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { kind = "an HTML page, perhaps a download error" }
        else { kind = nil }
        if let kind { return "not a JPEG or PNG (looks like \(kind))" }
        let hex = raw.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "not a JPEG or PNG (starts with \(hex))"
    }
}

func bigEndian32(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> Int {
    Int(raw[offset]) << 24 | Int(raw[offset + 1]) << 16 | Int(raw[offset + 2]) << 8 | Int(raw[offset + 3])
}

/// The marker segments of a JPEG up to its first scan, and where its image data ends.
private struct JPEGSegments {
    let raw: UnsafeRawBufferPointer
    /// From the first APP1 Exif segment.
    private(set) var orientation: Int?
    /// Offset of the first SOS marker.
    private(set) var scanStart: Int?

    init(_ raw: UnsafeRawBufferPointer) {
        self.raw = raw
        var offset = 2
        while offset + 4 <= raw.count {
            // libjpeg skips stray bytes between segments (with a warning); so does this walk.
            guard raw[offset] == 0xFF else { offset += 1; continue }
            let marker = raw[offset + 1]
            switch marker {
            case 0xFF: offset += 1; continue                   // fill byte
            case 0x01, 0xD0...0xD8: offset += 2; continue      // markers without a length
            case 0xD9: return                                  // EOI before any scan
            default: break
            }
            let length = Int(raw[offset + 2]) << 8 | Int(raw[offset + 3])
            guard length >= 2, offset + 2 + length <= raw.count else { return }
            if marker == 0xDA { scanStart = offset; return }
            if marker == 0xE1, orientation == nil {
                let payload = UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 2 + length)])
                orientation = ExifOrientation.orientation(exifSegment: payload)
            }
            offset += 2 + length
        }
    }

    /// The common case, checked in constant time. Entropy-coded data never holds FF D9 (a data
    /// FF is always followed by 00), so a file ending so is complete.
    var endsWithEndOfImage: Bool {
        raw.count >= 4 && raw[raw.count - 2] == 0xFF && raw[raw.count - 1] == 0xD9
    }

    /// Files with bytes after EOI (padding, camera trailers, the video of a motion photo) need
    /// the scans walked: skip each segment by its length and each scan's entropy data up to the
    /// next real marker (FF not followed by 00, a restart marker, or fill).
    var findsEndOfImage: Bool {
        guard var offset = scanStart, let base = raw.baseAddress else { return false }
        while offset + 1 < raw.count {
            let marker = raw[offset + 1]
            if marker == 0xD9 { return true }
            guard offset + 4 <= raw.count else { return false }
            let length = Int(raw[offset + 2]) << 8 | Int(raw[offset + 3])
            guard length >= 2 else { return false }
            offset += 2 + length
            // Find the next marker.
            while true {
                guard offset < raw.count,
                      let found = memchr(base + offset, 0xFF, raw.count - offset) else { return false }
                let at = base.distance(to: UnsafeRawPointer(found))
                guard at + 1 < raw.count else { return false }
                let next = raw[at + 1]
                if next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next) || next == 0x01 {
                    offset = at + 1
                    continue
                }
                offset = at
                break
            }
        }
        return false
    }
}
