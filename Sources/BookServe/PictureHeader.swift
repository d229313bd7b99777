import Foundation
import BookResolve

/// A picture's size from the first bytes of its file, without reading the rest: a PNG's IHDR, or a
/// JPEG's frame header.
enum PictureHeader {
    static func info(of file: URL, within folder: URL) -> ImageInfo? {
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(folder.standardizedFileURL.path + "/") else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 1 << 16)
        let got = read(fd, &head, head.count)
        guard got >= 24 else { return nil }
        let bytes = head[..<got]
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), Array(bytes[12..<16]) == Array("IHDR".utf8) {
            func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            return ImageInfo(format: .png, pixelWidth: be32(16), pixelHeight: be32(20), components: 3, colorModel: .rgb)
        }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        // The markers up to a start-of-frame (SOF0…SOF15 but DHT, JPG and DAC) give the size.
        var i = 2
        while i + 9 < got {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]), width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return ImageInfo(format: .jpeg, pixelWidth: width, pixelHeight: height, components: 3, colorModel: .rgb)
            }
            guard length >= 2 else { return nil }
            i += 2 + length
        }
        return nil
    }
}
