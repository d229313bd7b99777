import Foundation
import Synchronization

/// Asks a run to finish early, as a first Ctrl-C does: no call starts after it, the calls in flight
/// are waited for (each within its time-out) and their pictures kept, in the book, the journal and
/// the cache, the summary is given, and the run returns with `interrupted` set. A call the provider
/// finishes and bills is never paid for a second time by the run that resumes.
public final class IllustrationStop: Sendable {
    private let state = Mutex<(requested: Bool, handlers: [@Sendable () -> Void])>((false, []))

    public init() {}

    /// Idempotent; safe from any thread.
    public func request() {
        let handlers = state.withLock { s -> [@Sendable () -> Void] in
            guard !s.requested else { return [] }
            s.requested = true
            defer { s.handlers = [] }
            return s.handlers
        }
        handlers.forEach { $0() }
    }

    public var isRequested: Bool { state.withLock { $0.requested } }

    /// `body` runs once the stop is requested (at once if it already is).
    func onRequest(_ body: @escaping @Sendable () -> Void) {
        let already = state.withLock { s -> Bool in
            if !s.requested { s.handlers.append(body) }
            return s.requested
        }
        if already { body() }
    }
}
