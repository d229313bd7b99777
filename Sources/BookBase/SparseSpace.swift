import Foundation

/// Address space for buffers as large as a picture file of which only the header is ever written
/// (see `JPEGFileBytes`), carved from large anonymous reservations that are unmapped together when
/// the space goes. Unmapping a buffer whose pages were written makes the kernel interrupt every
/// other core running the process to flush its address translations; a mapping of its own for
/// each picture paid that once per picture, on the thread drawing the pages.
public final class SparseSpace: @unchecked Sendable {
    /// One reservation: address space, no memory until a page is written; a picture book's
    /// pictures fit in one or a few, and a process whose address space is limited keeps room.
    static let reservation = 64 << 20
    private let lock = NSLock()
    private var mappings: [(base: UnsafeMutableRawPointer, length: Int)] = []
    private var next: UnsafeMutableRawPointer?
    private var left = 0

    public init() {}

    /// A zero-filled buffer of `count` bytes, kept until the space goes; nil when the address
    /// space cannot be had.
    public func buffer(_ count: Int) -> UnsafeMutableRawPointer? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = max(page, (count + page - 1) / page * page)
        lock.lock()
        defer { lock.unlock() }
        if size > left {
            // A file larger than a quarter of a reservation, or a process whose address space is
            // limited (`ulimit -v`), gets a mapping of its own.
            if size <= Self.reservation / 4, let base = Self.map(Self.reservation) {
                mappings.append((base, Self.reservation))
                next = base
                left = Self.reservation
            } else {
                guard let base = Self.map(size) else { return nil }
                mappings.append((base, size))
                return base
            }
        }
        guard let base = next else { return nil }
        next = base + size
        left -= size
        return base
    }

    private static func map(_ length: Int) -> UnsafeMutableRawPointer? {
        guard let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              base != MAP_FAILED else { return nil }
        return base
    }

    deinit {
        for mapping in mappings { munmap(mapping.base, mapping.length) }
    }
}
