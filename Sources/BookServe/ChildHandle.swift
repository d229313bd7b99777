import Foundation

/// The export process of one running job, and why it is being stopped, if it is: shared between
/// the thread that waits for the process and the requests that cancel it or the shutdown.
final class ChildHandle: @unchecked Sendable {
    enum Stop: Sendable { case cancel, checkpoint }

    private let lock = NSLock()
    private var pid: Int32?
    private var stop: Stop?

    var stopReason: Stop? { lock.lock(); defer { lock.unlock() }; return stop }

    func started(_ pid: Int32) {
        lock.lock(); self.pid = pid; let pending = stop != nil; lock.unlock()
        // Stopped before it began: it ends at once, removing its own temporaries.
        if pending { kill(pid, SIGTERM) }
    }

    /// Asks the child to end (SIGTERM: the export removes its temporaries and stops).
    func stop(_ reason: Stop) {
        lock.lock()
        if stop == nil { stop = reason }
        let pid = self.pid
        lock.unlock()
        if let pid { kill(pid, SIGTERM) }
    }

    func forceKill() {
        lock.lock(); let pid = self.pid; lock.unlock()
        if let pid { kill(pid, SIGKILL) }
    }
}
