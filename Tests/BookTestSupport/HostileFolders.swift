import Foundation

/// Book folders made to read what is not theirs: links that lead outside, FIFOs and devices where
/// a picture or a font should be, a picture swapped for a link while it renders.
public enum HostileFolders {
    /// A JPEG the book must never show: another picture than `inside`, of exactly its size (so a
    /// check of the size alone cannot tell them apart), carrying `marker` in a comment segment so
    /// that its bytes are found wherever they are embedded.
    public static func outsideJPEG(sizedLike inside: Data, marker: String) throws -> Data {
        let other = try TestImages.redJPEG(width: 24, height: 16)
        let padding = inside.count - other.count - 4
        precondition(padding >= marker.utf8.count && padding < 65_000, "the inside JPEG must be larger than the outside one")
        let comment = Array(marker.utf8) + [UInt8](repeating: 0x20, count: padding - marker.utf8.count)
        let length = comment.count + 2
        var bytes = [UInt8](other.prefix(2)) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment
        bytes += other.dropFirst(2)
        precondition(bytes.count == inside.count)
        return Data(bytes)
    }

    public static func fifo(_ url: URL) throws {
        guard mkfifo(url.path, 0o644) == 0 else { throw ToolError("mkfifo \(url.path): \(String(cString: strerror(errno)))") }
    }

    public static func link(_ url: URL, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    /// Runs `body` on a thread of its own and says whether it returned within `seconds`. When it
    /// has not, each of `fifos` is opened for writing and closed again, so that a read blocked on
    /// one of them reaches the end of the pipe and the thread can finish.
    public static func finishes(within seconds: Double, unblocking fifos: [URL], _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .success { return true }
        for _ in 0..<20 {
            for fifo in fifos {
                let fd = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if fd >= 0 { close(fd) }
            }
            if done.wait(timeout: .now() + 1) == .success { break }
        }
        return false
    }
}

/// Swaps a file of a book (a picture, a font), as fast as it can, between the real file and a
/// symbolic link to a file outside the book's folder, each time by renaming over it (so the name
/// always exists).
public final class FileSwapper: @unchecked Sendable {
    private let target: URL
    private let keep: URL
    private let outside: String
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private var swapCount = 0
    /// How many times the link was put in place.
    public var swaps: Int { lock.withLock { swapCount } }

    /// How long each stays in place, in microseconds.
    private let linkDwell: UInt32, realDwell: UInt32

    /// `keep`: a hard link to the real file, in the same folder as `target`. A real picture
    /// left longer than the link lets more exports get past the resolve stage and meet the link
    /// later, when the picture is read again to be drawn.
    public init(_ target: URL, real keep: URL, outside: String, linkDwell: UInt32 = 50, realDwell: UInt32 = 50) {
        self.target = target
        self.keep = keep
        self.outside = outside
        self.linkDwell = linkDwell
        self.realDwell = realDwell
    }

    public func start() {
        Thread.detachNewThread { [self] in
            let folder = target.deletingLastPathComponent().path
            let linkName = folder + "/.swap-link", realName = folder + "/.swap-real"
            while !lock.withLock({ stopped }) {
                unlink(linkName)
                if symlink(outside, linkName) == 0, rename(linkName, target.path) == 0 { lock.withLock { swapCount += 1 } }
                usleep(linkDwell)
                unlink(realName)
                if link(keep.path, realName) == 0 { _ = rename(realName, target.path) }
                usleep(realDwell)
            }
            finished.signal()
        }
    }

    /// Stops swapping and leaves the real file in place.
    public func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }
}
