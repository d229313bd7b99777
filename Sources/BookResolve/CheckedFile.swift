import Foundation

/// Which file a descriptor was, to tell later whether a path still names the same file.
public struct FileIdentity: Sendable, Equatable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
    }
}

/// A regular file of the book, open for reading; closed when the last reference goes.
public final class OpenedFile: @unchecked Sendable {
    public let descriptor: Int32
    public let identity: FileIdentity

    init(descriptor: Int32, identity: FileIdentity) {
        self.descriptor = descriptor
        self.identity = identity
    }

    deinit { close(descriptor) }

    /// The file's bytes, as many as it had when it was opened (fewer if it has been cut short
    /// since); nil on a read error. Read, not mapped: a file cut short meanwhile would crash the
    /// process with SIGBUS.
    public func readAll() -> Data? {
        var data = Data(count: identity.size)
        let done = data.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            var done = 0
            while done < raw.count {
                let got = pread(descriptor, base + done, raw.count - done, off_t(done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return got < 0 ? -1 : done }
                done += got
            }
            return done
        }
        guard done >= 0 else { return nil }
        if done < data.count { data.removeSubrange(done...) }
        return data
    }
}

/// A file of the book as it was when it was opened: where it is beneath the book's folder, which
/// file it was, and, while the process can spare descriptors (see `DescriptorBudget`), the
/// descriptor it was checked through, so that reading it later reads that file or nothing.
public struct CheckedFile: Sendable {
    public let folder: BookFolder
    /// The path the book names, relative to its folder.
    public let path: String
    public let identity: FileIdentity
    private let held: Held?

    /// `opened` is kept open for later reads if the budget allows.
    public init(folder: BookFolder, path: String, opened: OpenedFile) {
        self.folder = folder; self.path = path; self.identity = opened.identity
        held = DescriptorBudget.shared.take() ? Held(opened) : nil
    }

    public var url: URL { folder.url.appendingPathComponent(path) }

    /// The file to read: the descriptor it was checked through, or, when that could not be kept,
    /// the same path opened again beneath the folder the same way. Nil when it has gone, is now a
    /// link, or is another file or another size than when it was first opened. Whoever reads it
    /// reads at offsets (`pread`): the descriptor may be shared.
    public func open() -> OpenedFile? {
        if let held {
            var status = stat()
            guard fstat(held.file.descriptor, &status) == 0, Int(status.st_size) == identity.size else { return nil }
            return held.file
        }
        guard let file = try? folder.openFile(path), file.identity == identity else { return nil }
        return file
    }

    /// A kept descriptor, given back to the budget with the last copy of its file.
    private final class Held: Sendable {
        let file: OpenedFile
        init(_ file: OpenedFile) { self.file = file }
        deinit { DescriptorBudget.shared.give() }
    }
}

/// How many descriptors of checked files may stay open at once in the process: a quarter of the
/// limit on open files, so that a book of thousands of pictures leaves cairo, fontconfig and the
/// outputs theirs. Beyond it a file is opened again, beneath the book's folder, when it is read.
final class DescriptorBudget: @unchecked Sendable {
    static let shared = DescriptorBudget()
    private let lock = NSLock()
    private var available: Int

    init() {
        var limit = rlimit()
        let soft = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 1024
        available = min(4096, soft / 4)
    }

    func take() -> Bool {
        lock.withLock {
            guard available > 0 else { return false }
            available -= 1
            return true
        }
    }

    func give() { lock.withLock { available += 1 } }
}
