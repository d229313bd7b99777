import Foundation
import Testing
import BookResolve

/// The digest that names images and cache entries, checked against FIPS 180-2's examples and
/// against coreutils on a buffer large enough to take the CPU's SHA path block after block.
@Suite struct SHA256Tests {
    @Test func standardVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func piecewiseEqualsWhole() throws {
        let data = Data((0..<3_000_007).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let h = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 4096, 1_000_000] where offset < data.count {
            h.update(data[offset..<min(offset + size, data.count)])
            offset += size
        }
        h.update(data[offset...])
        let whole = SHA256.hex(data)
        #expect(h.finish() == whole)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha256-\(getpid()).bin")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [file.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(out.split(separator: " ").first.map(String.init) == whole)
    }
}
