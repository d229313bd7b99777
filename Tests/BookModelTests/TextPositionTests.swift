import Foundation
import Testing
@testable import BookModel

/// Line and column of an offset, from the index a document builds once, are what counting from
/// the start of the text gives: in lines of every length, across the index's blocks, with
/// multi-byte characters and a byte order mark.
@Suite struct TextPositionTests {
    static func text(seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        let pieces = ["a", " ", "\n", "é", "日", "🦊", "\"key\": ", String(repeating: "x", count: 5000), "\r\n"]
        var s = seed % 2 == 0 ? "\u{FEFF}" : ""
        while s.utf8.count < 40_000 { s += pieces[next() % pieces.count] }
        return Array(s.utf8)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func indexedPositionsMatchCountingFromTheStart(_ seed: UInt64) {
        let bytes = Self.text(seed: seed)
        let index = TextPositions(bytes)
        var offsets = Array(stride(from: 0, through: bytes.count, by: 97)) + [0, 1, 2, 3, 4095, 4096, 4097, 8192, bytes.count]
        offsets += bytes.indices.filter { bytes[$0] == 0x0A }.prefix(50).flatMap { [$0, $0 + 1] }
        for offset in offsets {
            let indexed = index.position(of: offset, in: bytes)
            let counted = TextPosition.of(offset, in: bytes)
            #expect(indexed == counted, "offset \(offset): \(indexed) against \(counted)")
        }
    }
}
