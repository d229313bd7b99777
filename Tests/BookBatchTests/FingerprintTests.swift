import Foundation
import Testing
import BookRenderKit
import BookTestSupport

/// A batch knows its renderer by the executable's content: a copy elsewhere is the same
/// renderer, one changed byte deep inside is another.
@Suite struct FingerprintTests {
    @Test func theRendererIsNamedByItsExecutablesContent() throws {
        let dir = try temporaryDirectory("fingerprint")
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        var changed = bytes
        changed[2_500_000] ^= 1
        let (a, b, c) = (dir.appendingPathComponent("a"), dir.appendingPathComponent("b"), dir.appendingPathComponent("c"))
        try bytes.write(to: a)
        try bytes.write(to: b)
        try changed.write(to: c)
        let renderer = Fingerprinter(executable: a, resources: nil).renderer
        #expect(renderer == Fingerprinter(executable: b, resources: nil).renderer)
        #expect(renderer != Fingerprinter(executable: c, resources: nil).renderer)
        #expect(renderer != Fingerprinter(executable: dir.appendingPathComponent("missing"), resources: nil).renderer)
    }
}
