import Foundation

/// One service owns a data folder: a second one on the same folder would run its jobs twice.
/// The lock is the kernel's (flock), so it goes with the process however it ends.
final class DataFolderLock: @unchecked Sendable {
    private let descriptor: Int32
    /// The service that held the lock before, if it wrote its PID and no longer runs.
    private(set) var previous: pid_t?

    init(_ folder: URL) throws {
        let path = folder.appendingPathComponent("serve.lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DataFolderLockError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw DataFolderLockError(description: "another bookrender serve uses \(folder.path); stop it, or give this one its own --data folder")
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        let got = pread(descriptor, &bytes, bytes.count, 0)
        if got > 0, let pid = pid_t(String(decoding: bytes[..<got], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
           pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
            previous = pid
        }
        let mine = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, mine, mine.count, 0)
    }

    deinit { close(descriptor) }
}

struct DataFolderLockError: Error, CustomStringConvertible {
    var description: String
}
