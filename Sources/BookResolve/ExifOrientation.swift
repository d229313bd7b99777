import Foundation

/// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be turned or mirrored to
/// show the picture upright. Phones store photos as the sensor read them and set this tag,
/// so ignoring it prints portraits lying on their side.
public enum ExifOrientation {
    /// Orientations 5–8 turn the image a quarter: the displayed width is the stored height.
    public static func swapsAxes(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// The orientation in a JPEG APP1 payload ("Exif\0\0" then a TIFF block); nil when the
    /// segment is not EXIF, is malformed, or has no valid orientation.
    public static func orientation(exifSegment: UnsafeRawBufferPointer) -> Int? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] // "Exif\0\0"
        guard exifSegment.count > exifHeader.count,
              exifSegment.prefix(exifHeader.count).elementsEqual(exifHeader) else { return nil }
        return orientation(tiff: UnsafeRawBufferPointer(rebasing: exifSegment[exifHeader.count...]))
    }

    /// The orientation in a TIFF-structured block (as in a PNG eXIf chunk): byte order mark
    /// "II" or "MM", the magic 42, then IFD0, whose 0x0112 entry holds the value. Every offset is
    /// checked, since EXIF written by odd software is often malformed.
    public static func orientation(tiff: UnsafeRawBufferPointer) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        let reader = TIFFReader(bytes: tiff, littleEndian: littleEndian)
        guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4), let count = reader.u16(at: ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.u16(at: entry) else { return nil }
            guard tag == 0x0112 else { continue }
            guard let type = reader.u16(at: entry + 2), let values = reader.u32(at: entry + 4), values >= 1 else {
                return nil
            }
            // The standard says SHORT; a few writers use LONG. Both fit in the entry's value field.
            let value: Int?
            switch type {
            case 3: value = reader.u16(at: entry + 8)
            case 4: value = reader.u32(at: entry + 8)
            default: value = nil
            }
            guard let value, (1...8).contains(value) else { return nil }
            return value
        }
        return nil
    }

    /// The affine map from stored pixel coordinates (0…width × 0…height) to displayed ones, in
    /// cairo_matrix_t's terms: x' = xx·x + xy·y + x0, y' = yx·x + yy·y + y0. Drawing applies it
    /// rather than rotating pixels, so the PDF can embed the JPEG unchanged and the PNG agrees.
    public struct Transform: Sendable, Equatable {
        public var xx: Double, yx: Double, xy: Double, yy: Double, x0: Double, y0: Double
        public init(xx: Double, yx: Double, xy: Double, yy: Double, x0: Double, y0: Double) {
            self.xx = xx; self.yx = yx; self.xy = xy; self.yy = yy; self.x0 = x0; self.y0 = y0
        }
        public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
            (xx * x + xy * y + x0, yx * x + yy * y + y0)
        }
    }

    /// See `Transform`. `width` and `height` are the stored size; an invalid orientation is 1.
    public static func transform(_ orientation: Int, width: Double, height: Double) -> Transform {
        switch orientation {
        case 2: Transform(xx: -1, yx: 0, xy: 0, yy: 1, x0: width, y0: 0)         // mirrored
        case 3: Transform(xx: -1, yx: 0, xy: 0, yy: -1, x0: width, y0: height)   // upside down
        case 4: Transform(xx: 1, yx: 0, xy: 0, yy: -1, x0: 0, y0: height)        // mirrored upside down
        case 5: Transform(xx: 0, yx: 1, xy: 1, yy: 0, x0: 0, y0: 0)              // transposed
        case 6: Transform(xx: 0, yx: 1, xy: -1, yy: 0, x0: height, y0: 0)        // turn clockwise
        case 7: Transform(xx: 0, yx: -1, xy: -1, yy: 0, x0: height, y0: width)   // transverse
        case 8: Transform(xx: 0, yx: -1, xy: 1, yy: 0, x0: 0, y0: width)         // turn anticlockwise
        default: Transform(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)
        }
    }
}

private struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let littleEndian: Bool

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(at offset: Int) -> Int? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }
}
