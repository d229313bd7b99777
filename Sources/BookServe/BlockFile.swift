import Foundation
import CShim

/// A file read a block at a time, so a body of any size is scanned in a few kilobytes of memory.
/// While `copying`, every byte read is also appended to `copy`.
final class BlockReader {
    private let fd: Int32
    private let block: UnsafeMutableBufferPointer<UInt8>
    private var position = 0, filled = 0
    /// The file offset of `block[0]`.
    private var blockOffset: Int
    private(set) var failed = false
    var copy: BlockWriter?
    var copying = false

    init(path: String, from offset: Int = 0) throws(APIError) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw APIError(500, "storage", "cannot read the request back from the job's folder") }
        block = .allocate(capacity: 1 << 16)
        blockOffset = offset
        filled = 0
    }

    deinit {
        close(fd)
        block.deallocate()
    }

    /// The file offset of the next byte.
    var offset: Int { blockOffset + position }

    @inline(__always) func peek() -> UInt8? {
        if position == filled, !refill() { return nil }
        return block[position]
    }

    @inline(__always) func next() -> UInt8? {
        if position == filled, !refill() { return nil }
        let b = block[position]
        position += 1
        if copying { copy?.append(b) }
        return b
    }

    /// The bytes from here up to (not including) the next quote, backslash or control character,
    /// or the end of the block: the plain stretch of a string, handed over in one piece.
    func plainRun() -> UnsafeBufferPointer<UInt8> {
        if position == filled, !refill() { return UnsafeBufferPointer(start: nil, count: 0) }
        let base = block.baseAddress!
        let end = position + shim_json_plain_run(base + position, filled - position)
        let piece = UnsafeBufferPointer(start: base + position, count: end - position)
        position = end
        if copying { copy?.append(piece) }
        return piece
    }

    private func refill() -> Bool {
        blockOffset += filled
        position = 0
        filled = 0
        while true {
            let got = pread(fd, block.baseAddress, block.count, off_t(blockOffset))
            if got < 0, errno == EINTR { continue }
            if got < 0 { failed = true }
            filled = max(0, got)
            return filled > 0
        }
    }
}

/// A file written a block at a time.
final class BlockWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var failed = false
    let url: URL

    init(_ url: URL) throws(APIError) {
        self.url = url
        fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw APIError(500, "storage", "cannot write the book into the job's folder") }
        buffer.reserveCapacity(1 << 16)
    }

    deinit { close(fd) }

    @inline(__always) func append(_ byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 16 { flush() }
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        var done = 0
        buffer.withUnsafeBytes { raw in
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { failed = true; return }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes what is buffered; throws when any write failed (a full disk).
    func finish() throws(APIError) {
        flush()
        guard !failed else { throw APIError(507, "storage", "the service's disk is full; try again later") }
    }
}
