import Foundation
import BookRenderKit

/// SIGINT, SIGTERM and SIGHUP end the program without leaving temporary files: the library's
/// handler removes what is in flight and ends the process by the signal, so the exit status is
/// the signal's, as for any program a signal stops.
enum Interruption {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// `handler`: a batch installs `BookRenderKit.batchStopHandler`, which lets its jobs end.
    static func install(_ handler: @convention(c) (Int32) -> Void = BookRenderKit.stopHandler) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        // One stop at a time: a second signal waits until the first has ended the process.
        sigemptyset(&action.sa_mask)
        for signal in signals { sigaddset(&action.sa_mask, signal) }
        action.sa_flags = SA_RESTART
        // A program started from a thread that blocks signals (a dispatch queue's, for one)
        // inherits that mask; the threads made from here on inherit this one's.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in signals { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signal in signals {
            var current = sigaction()
            // A signal the program was started to ignore (nohup, a background job) stays ignored.
            guard sigaction(signal, nil, &current) == 0, !isIgnore(current.__sigaction_handler.sa_handler) else { continue }
            sigaction(signal, &action, nil)
        }
    }

    private static func isIgnore(_ handler: (@convention(c) (Int32) -> Void)?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
