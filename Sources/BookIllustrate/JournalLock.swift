import Foundation
import BookBase
#if canImport(Glibc)
import Glibc
#endif

/// One run at a time on a book: an flock(2) on a file beside the journal, held for the whole run.
/// The kernel drops it when the process ends, however it ends, so a run killed with SIGKILL leaves
/// nothing to clean up. The file itself stays (removing it would let a waiting run lock a file
/// that no longer has a name) and holds the pid of the run that last took it, for the message.
final class JournalLock: @unchecked Sendable {
    let url: URL
    private let descriptor: Int32

    private init(url: URL, descriptor: Int32) { self.url = url; self.descriptor = descriptor }
    deinit { release() }

    private var released = false
    func release() {
        guard !released else { return }
        released = true
        close(descriptor)
    }

    /// The lock file for a journal: `book.illustrate.lock` beside `book.illustrate.json`.
    static func url(forJournal journal: URL) -> URL {
        journal.deletingPathExtension().appendingPathExtension("lock")
    }

    /// Takes the lock, waiting at most `wait` seconds for another run to let it go, and no longer
    /// once `stop` is requested.
    static func acquire(journal: URL, wait: Double, stop: IllustrationStop? = nil,
                        log: (String) -> Void) async throws -> (lock: JournalLock, waited: Bool) {
        let url = url(forJournal: journal)
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            // The lock file is the journal's companion: a folder that refuses it refuses the journal too,
            // so the message names the journal, as any other output this run cannot write.
            let reason = String(cString: strerror(errno))
            throw OutputError("cannot write \(journal.path) (its lock file \(url.lastPathComponent)): \(reason); "
                              + "make \(journal.deletingLastPathComponent().path) writable to fill the book's pictures in")
        }
        var waited = false
        let deadline = Date().addingTimeInterval(max(0, wait))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let err = errno
            guard err == EWOULDBLOCK || err == EINTR else {
                close(fd)
                throw IllustrateError("cannot lock \(url.path): \(String(cString: strerror(err)))")
            }
            let holder = Self.holder(fd)
            if stop?.isRequested == true {
                close(fd)
                throw IllustrateError("interrupted while \(url.path) was locked by \(holder); nothing was requested")
            }
            if Date() >= deadline {
                close(fd)
                throw IllustrateError("\(url.path) is locked by \(holder) (an illustrate or export --fill-missing on the same book)"
                                      + (wait > 0 ? "; waited \(Int(wait)) s" : "")
                                      + "; let it finish, or stop it, then run again (--lock-wait S waits longer)")
            }
            if !waited { log("illustrate: \(url.lastPathComponent) is locked by \(holder); waiting up to \(Int(wait)) s for it to finish") }
            waited = true
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        // The pid is for the message another run prints; the lock itself is the flock.
        let pid = Data("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        return (JournalLock(url: url, descriptor: fd), waited)
    }

    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        let text = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        return Int32(text).map { "process \($0)" } ?? "another process"
    }
}
