import Foundation
import BookTestSupport

/// Shared by the hash tests: bytes fed in awkward pieces, and the digest a command-line tool
/// prints for the same bytes.
enum DigestChecks {
    /// 3 MB of bytes that are not a repeating pattern.
    static let sample = Data((0..<3_000_007).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })

    /// Feeds `data` to `update` in pieces of `sizes` bytes, then the rest in one.
    static func feed(_ data: Data, in sizes: [Int], to update: (Data) -> Void) {
        var offset = 0
        for size in sizes where offset < data.count {
            update(data[offset..<min(offset + size, data.count)])
            offset += size
        }
        update(data[min(offset, data.count)...])
    }

    /// The first word `tool arguments… FILE` prints for a file holding `data` (sha256sum, xxhsum).
    static func printed(by tool: String, _ arguments: [String], for data: Data) throws -> String? {
        let dir = try temporaryDirectory("digest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("data.bin")
        try data.write(to: file)
        return try run(tool, arguments + [file.path]).stdout.split(separator: " ").first.map(String.init)
    }
}
