import Foundation

/// One line of `--events`: a picture's new state, or the run's summary at the end. Apps read these
/// as they come to show per-page progress while the run goes on.
public struct IllustrationEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case state, summary }
    public var event: Kind
    // A state change.
    public var key: String?
    public var label: String?
    public var state: String?
    public var attempt: Int?
    public var reason: String?
    /// Relative to the book's folder, once ready.
    public var image: String?
    // The summary.
    public var needed: Int?
    public var ready: Int?
    public var failed: Int?
    public var calls: Int?
    public var cacheHits: Int?
    public var resumed: Int?
    public var skipped: Int?
    public var drafts: Int?
    /// Only when the run was asked to finish early: true.
    public var interrupted: Bool?

    public init(event: Kind, key: String? = nil, label: String? = nil, state: String? = nil, attempt: Int? = nil,
                reason: String? = nil, image: String? = nil) {
        self.event = event; self.key = key; self.label = label; self.state = state
        self.attempt = attempt; self.reason = reason; self.image = image
    }

    static func change(_ key: String, _ entry: JournalEntry) -> IllustrationEvent {
        IllustrationEvent(event: .state, key: key, label: entry.label, state: entry.state.rawValue, attempt: entry.attempt,
                          reason: entry.reason, image: entry.image)
    }

    static func summary(_ s: IllustrateSummary) -> IllustrationEvent {
        var e = IllustrationEvent(event: .summary)
        e.needed = s.needed; e.ready = s.ready; e.failed = s.failures.count; e.calls = s.calls
        e.cacheHits = s.cacheHits; e.resumed = s.resumed; e.skipped = s.skipped
        e.drafts = s.drafts
        e.interrupted = s.interrupted ? true : nil
        return e
    }

    /// One compact line, keys sorted, so the same run gives the same bytes.
    public var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Writes each event as it comes, one `write` per line, so a reader at the other end of a pipe
    /// sees it at once rather than when a buffer fills. A write that fails (the reader closed the
    /// pipe, the disk is full) ends the events, not the run: `whenClosed` is told once, and the
    /// run's pictures are still kept in the book and the journal.
    public static func jsonLines(to handle: FileHandle, whenClosed: (@Sendable () -> Void)? = nil) -> @Sendable (IllustrationEvent) -> Void {
        let lock = NSLock()
        nonisolated(unsafe) var closed = false
        return { event in
            lock.lock()
            guard !closed else { lock.unlock(); return }
            do {
                try handle.write(contentsOf: Data((event.jsonLine + "\n").utf8))
                lock.unlock()
            } catch {
                closed = true
                lock.unlock()
                whenClosed?()
            }
        }
    }
}
