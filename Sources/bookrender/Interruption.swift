import Foundation
import BookRenderKit

/// SIGINT, SIGTERM and SIGHUP end the program without leaving temporary files: the library's
/// handler removes what is in flight and ends the process by the signal, so the exit status is
/// the signal's, as for any program a signal stops. A crash removes them as well.
enum Interruption {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// The signals a run with paid calls in flight finishes on before it ends.
    static let finishing = [SIGINT, SIGTERM]

    /// `handler`: a batch installs `BookRenderKit.batchStopHandler`, which lets its jobs end.
    static func install(_ handler: @escaping @convention(c) (Int32) -> Void = BookRenderKit.stopHandler) {
        // A crash, too, leaves no half-written file.
        BookRenderKit.removeTemporariesOnCrash()
        // A reader of stdout that goes away (`export --events | head -1`) must not end a render
        // half-way with its temporaries left: writes to it fail with EPIPE and are dropped
        // (Console.write), and the render finishes. The HTTP client ignores SIGPIPE anyway, so
        // every command now behaves as illustrate and serve already did.
        signal(SIGPIPE, SIG_IGN)
        install(handler, for: signals)
    }

    /// For the generation step: the first SIGINT or SIGTERM calls `body` (on a thread of its own)
    /// to ask the run to finish what it has paid for; a second stops at once. Once per process.
    static func finishFirst(_ body: @escaping @Sendable () -> Void) {
        BookRenderKit.onFinishRequest { _ in body() }
        install(BookRenderKit.finishHandler, for: finishing)
    }

    /// Ends the process by the signal that asked the run to finish, if one did, as a signal stops
    /// any program: so the caller sees the run was interrupted.
    static func endIfFinishRequested() {
        guard let signal = BookRenderKit.finishRequestSignal else { return }
        BookRenderKit.stopHandler(signal)
    }

    private static func install(_ handler: @escaping @convention(c) (Int32) -> Void, for handled: [Int32]) {
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
        for signal in handled {
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
