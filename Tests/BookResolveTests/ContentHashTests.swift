import Foundation
import Testing
import BookResolve

/// The hash that names images and digests PDF content: XXH3-128 as xxhsum prints it, the same
/// whether fed whole or in parts.
@Suite struct ContentHashTests {
    @Test func knownValues() {
        #expect(ContentHash.hex("") == "99aa06d3014798d86001c324468d497f")
        #expect(ContentHash.hex("abc") == "06b05ab6733a618578af5f94892f3950")
        #expect(ContentHash.hex("abd") != ContentHash.hex("abc"))
    }

    @Test func piecewiseEqualsWholeAndXXHSum() throws {
        // Past 240 bytes XXH3 switches to its striped loop, past 1 KiB to whole blocks: cross both.
        let data = Data((0..<3_000_007).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let h = ContentHash()
        var offset = 0
        for size in [1, 239, 240, 241, 1023, 1025, 65_536, 1_000_000] where offset < data.count {
            h.update(data[offset..<min(offset + size, data.count)])
            offset += size
        }
        h.update(data[offset...])
        let whole = ContentHash.hex(data)
        #expect(h.finish() == whole)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("xxh3-\(getpid()).bin")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/xxhsum")
        p.arguments = ["-H2", file.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(out.split(separator: " ").first.map(String.init) == whole)
    }
}
