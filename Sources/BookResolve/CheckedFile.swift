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

/// A file of the book as it was when it was opened: where it is beneath the book's folder and
/// which file it was, so that reading it again later reads that file or nothing. Not kept open:
/// a book of thousands of pictures would run out of descriptors.
public struct CheckedFile: Sendable {
    public let folder: BookFolder
    /// The path the book names, relative to its folder.
    public let path: String
    public let identity: FileIdentity

    public init(folder: BookFolder, path: String, identity: FileIdentity) {
        self.folder = folder; self.path = path; self.identity = identity
    }

    public var url: URL { folder.url.appendingPathComponent(path) }

    /// The same file opened again beneath the folder, the same way; nil when it has gone, is now
    /// a link, or is another file or another size than when it was first opened.
    public func reopen() -> OpenedFile? {
        guard let file = try? folder.openFile(path), file.identity == identity else { return nil }
        return file
    }
}
