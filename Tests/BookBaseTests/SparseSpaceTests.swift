import Foundation
import Testing
import BookBase

/// The buffers `JPEGFileBytes` hands cairo: each its own, zero-filled, writable over its whole
/// length, whatever its size, and valid as long as the space is.
@Suite struct SparseSpaceTests {
    @Test func buffersAreZeroedWritableAndApart() throws {
        let space = SparseSpace()
        // Small ones share a reservation; the last two are larger than a quarter of one, the last
        // larger than a whole one.
        let sizes = [1, 4_095, 4_096, 4_097, 1_500_000, 3, 20 << 20, 70 << 20]
        var buffers: [(UnsafeMutableRawPointer, Int)] = []
        for (i, size) in sizes.enumerated() {
            let buffer = try #require(space.buffer(size), "\(size) bytes")
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            #expect(bytes[0] == 0 && bytes[size - 1] == 0, "\(size) bytes: not zero-filled")
            bytes[0] = UInt8(i + 1)
            bytes[size - 1] = UInt8(i + 1)
            buffers.append((buffer, size))
        }
        for (i, (buffer, size)) in buffers.enumerated() {
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            #expect(bytes[0] == UInt8(i + 1) && bytes[size - 1] == UInt8(i + 1), "buffer \(i) was written over")
            for (j, (other, otherSize)) in buffers.enumerated() where j != i {
                #expect(buffer + size <= other || other + otherSize <= buffer, "buffers \(i) and \(j) overlap")
            }
        }
    }
}
