import Foundation

/// Test inputs made at test time, so the suite carries no binary fixtures: JPEGs from cjpeg
/// (libjpeg-turbo-progs), PNGs and CMYK JPEGs from ImageMagick's convert, both installed by
/// scripts/install-deps.sh. What no tool writes (plain CMYK JPEGs, EXIF orientation, a PNG for
/// tests that must run without image tools) is put together byte by byte here.
public enum TestImages {
    // MARK: Running tools

    /// Runs `body` in a fresh temporary directory and removes it afterwards.
    public static func inTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = try temporaryDirectory("images")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// Runs a tool in `directory`; a tool that fails is an error carrying what it printed.
    public static func run(_ name: String, _ arguments: [String], in directory: URL) throws {
        let result = try BookTestSupport.run(name, arguments, currentDirectory: directory)
        guard result.status == 0 else {
            throw ToolError("\(name) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
    }

    /// ImageMagick: `arguments` then `output` (which may carry a format prefix, "PNG8:out.png").
    public static func convert(_ arguments: [String], output: String = "out.png") throws -> Data {
        try inTemporaryDirectory { directory in
            try run("convert", arguments + [output], in: directory)
            let file = output.split(separator: ":").last.map(String.init) ?? output
            return try Data(contentsOf: directory.appendingPathComponent(file))
        }
    }

    /// cjpeg from a binary PPM, with options such as "-progressive", "-grayscale", "-rgb".
    public static func cjpeg(_ ppm: Data, _ options: [String] = [], quality: Int = 95) throws -> Data {
        try inTemporaryDirectory { directory in
            try ppm.write(to: directory.appendingPathComponent("in.ppm"))
            try run("cjpeg", ["-quality", "\(quality)"] + options + ["-outfile", "out.jpg", "in.ppm"], in: directory)
            return try Data(contentsOf: directory.appendingPathComponent("out.jpg"))
        }
    }

    // MARK: Pixels

    public static func ppm(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
        let header = Array("P6\n\(width) \(height)\n255\n".utf8)
        var bytes = [UInt8](repeating: 0, count: header.count + width * height * 3)
        bytes.replaceSubrange(0..<header.count, with: header)
        var index = header.count
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                bytes[index] = r
                bytes[index + 1] = g
                bytes[index + 2] = b
                index += 3
            }
        }
        return Data(bytes)
    }

    public static func solidPPM(width: Int, height: Int, _ rgb: (UInt8, UInt8, UInt8)) -> Data {
        ppm(width: width, height: height) { _, _ in rgb }
    }

    /// A solid-red baseline JPEG, the most common input.
    public static func redJPEG(width: Int = 64, height: Int = 48, _ options: [String] = []) throws -> Data {
        try cjpeg(solidPPM(width: width, height: height, (255, 0, 0)), options)
    }

    /// A photo-like gradient, so compressed data is not trivially small.
    public static func gradientJPEG(width: Int, height: Int, _ options: [String] = []) throws -> Data {
        try cjpeg(ppm(width: width, height: height) { x, y in
            (UInt8((x * 255) / max(width - 1, 1)), UInt8((y * 255) / max(height - 1, 1)), UInt8((x ^ y) & 0xFF))
        }, options, quality: 90)
    }

    // MARK: JPEGs written by hand

    /// A baseline JPEG of one flat colour with the given raw component values (1, 3 or 4),
    /// optionally with an Adobe APP14 marker. Needed because ImageMagick writes CMYK only as
    /// YCCK, and nothing writes plain or unmarked CMYK. A flat block has only a DC coefficient,
    /// 8·(value − 128) with unit quantisation, so the entropy coding fits in a few lines.
    public static func flatJPEG(width: Int, height: Int, components: [UInt8], adobeTransform: UInt8?) -> Data {
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ payload: [UInt8]) {
            let length = payload.count + 2
            out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        if let transform = adobeTransform {
            segment(0xEE, Array("Adobe".utf8) + [0x00, 0x64, 0x00, 0x00, 0x00, 0x00, transform])
        }
        segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        let count = components.count
        var frame: [UInt8] = [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(count)]
        for c in 0..<count { frame += [UInt8(c + 1), 0x11, 0x00] }
        segment(0xC0, frame)
        // DC table: categories 0…11 as the 4-bit codes 0000…1011. AC table: only EOB, code "0".
        var dcLengths = [UInt8](repeating: 0, count: 16)
        dcLengths[3] = 12
        segment(0xC4, [0x00] + dcLengths + Array(0...11))
        var acLengths = [UInt8](repeating: 0, count: 16)
        acLengths[0] = 1
        segment(0xC4, [0x10] + acLengths + [0x00])
        var scan: [UInt8] = [UInt8(count)]
        for c in 0..<count { scan += [UInt8(c + 1), 0x00] }
        segment(0xDA, scan + [0, 63, 0])

        var bits = BitWriter()
        var previous = [Int](repeating: 0, count: count)
        for _ in 0..<(((width + 7) / 8) * ((height + 7) / 8)) {
            for c in 0..<count {
                let dc = 8 * (Int(components[c]) - 128)
                let difference = dc - previous[c]
                previous[c] = dc
                let category = difference == 0 ? 0 : Int.bitWidth - abs(difference).leadingZeroBitCount
                bits.write(category, count: 4)
                if category > 0 {
                    bits.write(difference > 0 ? difference : difference + (1 << category) - 1, count: category)
                }
                bits.write(0, count: 1)
            }
        }
        out += bits.finish()
        out += [0xFF, 0xD9]
        return Data(out)
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator = 0
        var filled = 0

        mutating func write(_ value: Int, count: Int) {
            for bit in stride(from: count - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> bit) & 1
                filled += 1
                if filled == 8 {
                    bytes.append(UInt8(accumulator))
                    if accumulator == 0xFF { bytes.append(0x00) } // byte stuffing
                    accumulator = 0
                    filled = 0
                }
            }
        }

        /// Pads the last byte with 1 bits, as the standard asks.
        mutating func finish() -> [UInt8] {
            while filled != 0 { write(1, count: 1) }
            return bytes
        }
    }

    // MARK: EXIF

    /// A TIFF block whose IFD0 has an ImageDescription entry and then Orientation, so a reader
    /// must walk the entries rather than look at the first.
    public static func exifTIFF(orientation: Int, bigEndian: Bool, type: Int = 3) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let value: [UInt8] = type == 4 ? u32(orientation) : u16(orientation) + [0, 0]
        return (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
            + u16(2)
            + u16(0x010E) + u16(2) + u32(4) + Array("abc\0".utf8)
            + u16(0x0112) + u16(type) + u32(1) + value
            + u32(0)
    }

    /// `jpeg` with `segments` comment segments of `size` bytes each after SOI: a long header, as a
    /// camera's thumbnails and ICC profile make it.
    public static func withComments(_ jpeg: Data, segments: Int, size: Int) -> Data {
        var out = Data(jpeg.prefix(2))
        for i in 0..<segments {
            let length = size + 2
            out += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
            out += Data(repeating: UInt8(0x41 + i), count: size)
        }
        return out + jpeg.dropFirst(2)
    }

    /// The JPEG with an Exif APP1 segment (preceded by an XMP APP1, which must be skipped)
    /// right after SOI.
    public static func withExifOrientation(_ jpeg: Data, _ orientation: Int, bigEndian: Bool = false) -> Data {
        func app1(_ payload: [UInt8]) -> [UInt8] {
            [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let xmp = app1(Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8))
        let exif = app1(Array("Exif\0\0".utf8) + exifTIFF(orientation: orientation, bigEndian: bigEndian))
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: xmp + exif, at: 2)
        return Data(bytes)
    }

    // MARK: PNG chunks

    public struct Chunk: Sendable {
        public let type: String
        public let data: [UInt8]
    }

    public static func chunks(_ png: Data) -> [Chunk] {
        let bytes = [UInt8](png)
        var offset = 8
        var result: [Chunk] = []
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard offset + 12 + length <= bytes.count else { break }
            result.append(Chunk(type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self),
                                data: Array(bytes[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return result
    }

    /// An 8×8 RGB PNG in one colour derived from `seed`, written without any image tool: its
    /// deflate stream is a stored (uncompressed) block, which is valid zlib.
    public static func tinyPNG(_ seed: UInt8 = 7) -> Data {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        func adler(_ bytes: [UInt8]) -> UInt32 {
            var a: UInt32 = 1, b: UInt32 = 0
            for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
            return b << 16 | a
        }
        var raw: [UInt8] = []
        for _ in 0..<8 { raw.append(0); for _ in 0..<8 { raw += [seed, 255 &- seed, 128] } }
        let n = UInt16(raw.count)
        let zlib: [UInt8] = [0x78, 0x01, 1, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8)] + raw + be32(adler(raw))
        let ihdr = be32(8) + be32(8) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    /// The PNG with a chunk inserted after IHDR (with a correct CRC, so libpng keeps it).
    public static func insertingChunk(_ type: String, _ data: [UInt8], into png: Data) -> Data {
        var bytes = [UInt8](png)
        let typeBytes = Array(type.utf8)
        let length = data.count
        let crc = crc32(typeBytes + data)
        let chunk = [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            + typeBytes + data
            + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        bytes.insert(contentsOf: chunk, at: 8 + 12 + 13)
        return Data(bytes)
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
