import Foundation

/// Why the run makes no more calls.
enum Halt: Sendable, Equatable {
    /// The key was rejected or the provider cannot be reached: the run ends with this message.
    case fatal(String)
    /// The provider asked for a wait longer than `--max-wait`: pages not made are left for a later run.
    case rateLimited(until: Date)
    /// The run was asked to finish (a first Ctrl-C): calls in flight end and are kept, no other starts.
    case interrupted

    /// UTC, to the second: "2026-11-27T09:30:00Z".
    static func time(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }
}

/// Guards every paid call of a run. Until the provider has answered once (with anything but a
/// rejected key), calls go one at a time, so a bad key or a wrong address costs one call rather
/// than one per free place; after a halt, no call goes out at all.
actor CallGate {
    /// Providers that need no key (the local one, test doubles) are trusted from the start.
    private var confirmed: Bool
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var halt: Halt?
    private var connectionFailures = 0
    private var firstConnectionFailure: Date?
    /// Jobs waiting before a retry: a halt wakes them, as no retry follows it.
    private var pausing: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextPause = 0

    init(confirmed: Bool) { self.confirmed = confirmed }

    /// Returns the halt, if any, instead of letting the caller call.
    func enter() async -> Halt? {
        while true {
            if let halt { return halt }
            if confirmed { return nil }
            if !busy { busy = true; return nil }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// The provider answered over HTTP (whatever it said, unless it rejected the key).
    func answered() {
        connectionFailures = 0
        firstConnectionFailure = nil
        confirmed = true
        leave()
    }

    /// The call got no answer worth trusting the provider on (a rejected key, a transport error).
    func unanswered() { leave() }

    /// Counts a connection that could not be made; true once there have been `limit` in a row or
    /// the first of them is `budget` seconds old.
    func connectionFailed(limit: Int, budget: Double, now: Date = Date()) -> (give: Bool, count: Int, seconds: Double) {
        connectionFailures += 1
        let first = firstConnectionFailure ?? now
        firstConnectionFailure = first
        let seconds = now.timeIntervalSince(first)
        return (connectionFailures >= limit || seconds >= budget, connectionFailures, seconds)
    }

    func stop(_ halt: Halt) {
        if case .fatal = self.halt { return }
        self.halt = halt
        wakeAll()
        let paused = pausing.values
        pausing = [:]
        paused.forEach { $0.resume() }
    }

    /// Waits `seconds` before a retry, or until the run halts.
    func pause(_ seconds: Double) async {
        guard halt == nil else { return }
        nextPause += 1
        let id = nextPause
        await withCheckedContinuation { continuation in
            pausing[id] = continuation
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                self.endPause(id)
            }
        }
    }

    private func endPause(_ id: Int) { pausing.removeValue(forKey: id)?.resume() }

    private func leave() {
        busy = false
        wakeAll()
    }

    private func wakeAll() {
        let woken = waiters
        waiters = []
        woken.forEach { $0.resume() }
    }
}
