import Foundation
import BookBase

/// The content hash of a picture file remembered by what `stat` says of it, as git's index and
/// make remember files: the device, inode, size, modification and status-change times. A re-export,
/// `watch`, a batch re-run or `serve` then reads only the headers of pictures it has seen, not
/// every byte of every picture again to hash it.
///
/// The status-change time cannot be set by a user (`touch` sets it to now), so a file written
/// since has another one. A stamp is only remembered once the file's times lie `settled` seconds
/// in the past: on a filesystem whose clock is coarse, a file written again within the same tick
/// after it was hashed would keep its stamp, and a new file given a freed inode number within
/// that tick could take an old stamp; neither can match one that old.
public struct FileHashMemo: Sendable {
    public let folder: URL
    /// How long ago a file's times must lie for its stamp to be remembered, in seconds.
    public let settled: Double

    public init(folder: URL, settled: Double = 2) {
        self.folder = folder
        self.settled = settled
    }

    /// Raised when an entry's layout, or the hash it holds, changes.
    static let format = 1
    static var magic: String { "bookrender file hash \(format)" }

    /// What `stat` says of an open file, as a memo key; nil when it cannot be asked.
    public struct Stamp: Sendable, Equatable {
        /// Which file it is and its size, as `CheckedFile` knows a file.
        let identity: FileIdentity
        let modified: timespec, changed: timespec

        public init?(descriptor fd: Int32) {
            var s = stat()
            guard fstat(fd, &s) == 0 else { return nil }
            identity = FileIdentity(s)
            modified = s.st_mtim; changed = s.st_ctim
        }

        var key: String {
            "\(identity.device) \(identity.inode) \(identity.size) \(modified.tv_sec).\(modified.tv_nsec) \(changed.tv_sec).\(changed.tv_nsec)"
        }

        /// Whether both times lie at least `seconds` before `now`.
        func settled(_ seconds: Double, now: Date) -> Bool {
            let newest = max(Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9,
                             Double(changed.tv_sec) + Double(changed.tv_nsec) / 1e9)
            return newest <= now.timeIntervalSince1970 - seconds
        }

        public static func == (a: Stamp, b: Stamp) -> Bool {
            a.key == b.key
        }
    }

    func entry(for stamp: Stamp) -> URL {
        folder.appendingPathComponent(ContentHash.hex(stamp.key))
    }

    /// The hash remembered for a file with this stamp, when one is.
    public func hash(for stamp: Stamp) -> String? {
        guard let body = UserCache.read(entry(for: stamp), magic: Self.magic),
              let text = String(data: body, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The entry names its stamp: a key's hash colliding with another's is not taken for it.
        guard lines.count == 2, lines[0] == stamp.key, !lines[1].isEmpty else { return nil }
        return String(lines[1])
    }

    /// Remembers `hash` for a file stamped `stamp` when its times have settled; a cache that
    /// cannot be written is passed over.
    public func remember(_ hash: String, for stamp: Stamp, now: Date = Date()) {
        guard stamp.settled(settled, now: now) else { return }
        UserCache.write(Data("\(stamp.key)\n\(hash)".utf8), to: entry(for: stamp), magic: Self.magic)
    }
}
