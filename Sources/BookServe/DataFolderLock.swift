import Foundation

/// One service owns a data folder: a second one on the same folder would run its jobs twice.
/// The lock is the kernel's (flock), so it goes with the process however it ends.
final class DataFolderLock: @unchecked Sendable {
    private let descriptor: Int32

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
    }

    deinit { close(descriptor) }
}

struct DataFolderLockError: Error, CustomStringConvertible {
    var description: String
}
