import Foundation

/// The resolution a PNG file records in its pHYs chunk (bookrender writes one on every page), so a
/// PDF compared with such pages is rasterized at the pages' own resolution.
enum PNGResolution {
    /// Dots per inch of `url`'s pHYs, nil when it has none, gives no unit (an aspect ratio
    /// alone) or cannot be read. A resolution stored as a whole number of pixels per metre comes
    /// back as the whole dpi it was written from (5906 per metre is 150 dpi).
    static func dpi(of url: URL) -> Double? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let signature = try? handle.read(upToCount: 8), signature == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            return nil
        }
        // pHYs must come before the first IDAT: only the chunks up to there are read.
        while let header = try? handle.read(upToCount: 8), header.count == 8 {
            let bytes = [UInt8](header)
            let length = UInt64(bytes[0]) << 24 | UInt64(bytes[1]) << 16 | UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { return nil }
            if type == "pHYs" {
                guard length == 9, let body = try? handle.read(upToCount: 9), body.count == 9 else { return nil }
                let b = [UInt8](body)
                let x = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
                guard b[8] == 1, x > 0 else { return nil }
                let dpi = Double(x) * 0.0254
                let whole = dpi.rounded()
                return abs(dpi - whole) < 0.05 ? whole : dpi
            }
            guard let offset = try? handle.offset(), (try? handle.seek(toOffset: offset + length + 4)) != nil else { return nil }
        }
        return nil
    }
}
