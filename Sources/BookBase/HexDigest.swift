import Foundation

/// A hash fed in parts whose digest is lowercase hex, over one of the C hashers in CShim
/// (`ContentHash`, `SHA256`): a large file can be hashed block by block.
public class HexDigest {
    /// A C hasher: a new state, feeding it, and writing the hex digits and a NUL (which frees it).
    struct Hasher {
        let new: () -> OpaquePointer?
        let update: (OpaquePointer, UnsafeRawPointer, Int) -> Void
        let finish: (OpaquePointer, UnsafeMutablePointer<CChar>) -> Void
        let hexDigits: Int
    }

    private let hasher: Hasher
    private var state: OpaquePointer?

    init(_ hasher: Hasher) {
        self.hasher = hasher
        state = hasher.new()
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let state, let base = bytes.baseAddress else { return }
        hasher.update(state, base, bytes.count)
    }

    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// Feeds the file at `path` a mebibyte at a time, so a large file is never held whole;
    /// returns how many bytes it read, or nil when the file cannot be opened.
    @discardableResult
    public func update(fileAt path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return update(descriptor: fd)
    }

    /// Feeds the open file `fd` from its start, 64 KiB at a time; returns how many bytes it
    /// read (up to a read error, if any). Read at offsets, not from the descriptor's position, so
    /// a descriptor others read too is neither disturbed nor read from the middle. The buffer stays
    /// below malloc's mmap threshold: a larger one is mapped afresh for every file, and its pages
    /// faulted in and cleared each time, which cost as much as the hashing.
    @discardableResult
    public func update(descriptor fd: Int32) -> Int {
        let block = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 64)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let got = pread(fd, buffer, block, off_t(total))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return total }
            update(UnsafeRawBufferPointer(start: buffer, count: got))
            total += got
        }
    }

    /// The digest; the hasher takes no more input after this.
    public func finish() -> String {
        guard let state else { return "" }
        self.state = nil
        var hex = [CChar](repeating: 0, count: hasher.hexDigits + 1)
        hasher.finish(state, &hex)
        return String(decoding: hex.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { if state != nil { _ = finish() } }
}

/// One-call digests for each kind of `HexDigest`.
public protocol OneCallDigest: HexDigest {
    init()
}

extension OneCallDigest {
    public static func hex(_ data: Data) -> String {
        let h = Self()
        h.update(data)
        return h.finish()
    }

    public static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
