import Foundation
import BookBase

/// Each picture's state, written beside the book (atomically, on every change) so a run killed at
/// any point can be resumed without paying again for what was already made.
public struct JournalEntry: Codable, Sendable, Equatable {
    /// `unreferenced`: made and placed in the book without the main character's picture the book
    /// declares (--no-reference); never taken as done, so a later run with the picture makes it again.
    /// `draft`: made and placed in the book at preview quality (--draft); a later run without
    /// --draft makes it again at print quality, from the same character reference.
    /// `scheduled`, `generating` and `retrying` are a run's work under way: once its process is
    /// gone, `--status` reports them as `interrupted`.
    public enum State: String, Codable, Sendable { case pending, scheduled, generating, retrying, ready, failed, unreferenced, draft }
    /// The states of a picture a run is working on.
    static let underWay: Set<State> = [.scheduled, .generating, .retrying]

    public var label: String
    public var state: State
    /// The attempt under way (or the one that will follow a `retrying`).
    public var attempt: Int?
    /// Relative to the book's folder, once ready.
    public var image: String?
    /// The content address of the request that made `image`: a ready entry is reused only for the same request.
    public var request: String?
    public var reason: String?
    /// A draft or unreferenced picture the book still holds while this entry's replacement is under
    /// way or has failed: the next run replaces it, even if this attempt did not.
    public var replaces: String?
}

public struct JournalFile: Codable, Sendable {
    public var book: String
    public var provider: String
    public var model: String
    public var pages: [String: JournalEntry]
    /// The run that last wrote it.
    public var run: JournalRun?
}

actor Journal {
    let url: URL
    private(set) var file: JournalFile
    /// A dry run reads the journal but never writes it.
    let writes: Bool
    /// Told of every state written, for `--events`.
    let events: (@Sendable (IllustrationEvent) -> Void)?

    init(url: URL, book: String, provider: String, model: String, writes: Bool,
         events: (@Sendable (IllustrationEvent) -> Void)? = nil) {
        self.url = url
        self.writes = writes
        self.events = writes ? events : nil
        var file = JournalFile(book: book, provider: provider, model: model, pages: [:], run: writes ? .current() : nil)
        if let data = try? Data(contentsOf: url), let old = try? JSONDecoder().decode(JournalFile.self, from: data) {
            file.pages = old.pages
        }
        self.file = file
    }

    /// A ready (or draft) entry made by the same request whose image is still on disk; the caller
    /// checks the picture before it calls `resumed`.
    func reusable(_ key: String, request: String, folder: URL) -> String? {
        guard let e = file.pages[key], e.state == .ready || e.state == .draft, e.request == request, let image = e.image,
              FileManager.default.fileExists(atPath: folder.appendingPathComponent(image).path) else { return nil }
        return image
    }

    /// The entry `reusable` gave is taken as it stands: told as its state.
    func resumed(_ key: String) {
        if let e = file.pages[key] { events?(.change(key, e)) }
    }

    func set(_ key: String, label: String, _ state: JournalEntry.State, attempt: Int? = nil, image: String? = nil,
             request: String? = nil, reason: String? = nil) throws {
        // A ready picture stays on record until its job decides whether it still fits the request.
        if state == .pending || state == .scheduled, file.pages[key]?.state == .ready { return }
        // A settled picture keeps the count of the attempts it took, for --status.
        let attempt = attempt ?? (state == .ready || state == .failed ? file.pages[key]?.attempt : nil)
        var replaces = file.pages[key]?.replaces
        if let old = file.pages[key], old.state == .draft || old.state == .unreferenced, old.state != state { replaces = old.image ?? replaces }
        if image != nil { replaces = nil }
        let entry = JournalEntry(label: label, state: state, attempt: attempt, image: image, request: request, reason: reason,
                                 replaces: replaces)
        file.pages[key] = entry
        try save()
        events?(.change(key, entry))
    }

    /// Pictures in the book this run makes again, by job key: those made without the main character's
    /// picture (unless this run goes without it too), and the drafts (unless this run makes drafts).
    func remakes(unreferenced: Bool, drafts: Bool) -> [String: String] {
        file.pages.compactMapValues { e in
            if e.state == .unreferenced { return unreferenced ? e.image : nil }
            guard drafts else { return nil }
            return e.state == .draft ? e.image : e.replaces
        }
    }

    func save() throws {
        guard writes else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicOutput.write(try encoder.encode(file), to: url)
    }
}
