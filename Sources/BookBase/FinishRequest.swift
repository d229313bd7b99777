import Foundation
import CShim

/// The first SIGINT or SIGTERM as a request to finish, for a run whose work in flight is paid for
/// (the image calls of `illustrate`): the run starts nothing new, keeps what is under way, and then
/// ends by the signal (`TemporaryFiles.signalHandler`). A second signal stops the process at once.
/// As with `TemporaryFiles`, the library installs no handler: the program does.
public enum FinishRequest {
    /// Records the first signal and tells `listen`'s thread; a later one is
    /// `TemporaryFiles.signalHandler`'s. Async-signal-safe: install it with `sigaction`.
    public static let signalHandler: @convention(c) (Int32) -> Void = shim_interrupt_request

    /// Calls `body` with the signal, on a thread of its own, when the first comes. Call it before
    /// installing `signalHandler`, once per process.
    public static func listen(_ body: @escaping @Sendable (Int32) -> Void) {
        let fd = shim_interrupt_open()
        guard fd >= 0 else { return }
        Thread.detachNewThread {
            var number: UInt8 = 0
            while read(fd, &number, 1) < 0, errno == EINTR {}
            body(Int32(number))
        }
    }

    /// The signal that asked for the finish; nil while none has.
    public static var signal: Int32? {
        let s = shim_interrupt_signal()
        return s == 0 ? nil : s
    }
}
