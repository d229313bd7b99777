import Foundation
import BookBase

/// Each picture's state, written beside the book (atomically, on every change) so a run killed at
/// any point can be resumed without paying again for what was already made.
public struct JournalEntry: Codable, Sendable, Equatable {
    /// `unreferenced`: made and placed in the book without the main character's picture the book
    /// declares (--no-reference); never taken as done, so a later run with the picture makes it again.
    public enum State: String, Codable, Sendable { case pending, scheduled, generating, retrying, ready, failed, unreferenced }
    public var label: String
    public var state: State
    /// The attempt under way (or the one that will follow a `retrying`).
    public var attempt: Int?
    /// Relative to the book's folder, once ready.
    public var image: String?
    /// The content address of the request that made `image`: a ready entry is reused only for the same request.
    public var request: String?
    public var reason: String?
}

public struct JournalFile: Codable, Sendable {
    public var book: String
    public var provider: String
    public var model: String
    public var pages: [String: JournalEntry]
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
        var file = JournalFile(book: book, provider: provider, model: model, pages: [:])
        if let data = try? Data(contentsOf: url), let old = try? JSONDecoder().decode(JournalFile.self, from: data) {
            file.pages = old.pages
        }
        self.file = file
    }

    /// A ready entry made by the same request whose image is still on disk.
    func reusable(_ key: String, request: String, folder: URL) -> String? {
        guard let e = file.pages[key], e.state == .ready, e.request == request, let image = e.image,
              FileManager.default.fileExists(atPath: folder.appendingPathComponent(image).path) else { return nil }
        events?(.change(key, e))
        return image
    }

    func set(_ key: String, label: String, _ state: JournalEntry.State, attempt: Int? = nil, image: String? = nil,
             request: String? = nil, reason: String? = nil) throws {
        // A ready picture stays on record until its job decides whether it still fits the request.
        if state == .pending || state == .scheduled, file.pages[key]?.state == .ready { return }
        // A settled picture keeps the count of the attempts it took, for --status.
        let attempt = attempt ?? (state == .ready || state == .failed ? file.pages[key]?.attempt : nil)
        let entry = JournalEntry(label: label, state: state, attempt: attempt, image: image, request: request, reason: reason)
        file.pages[key] = entry
        try save()
        events?(.change(key, entry))
    }

    /// Pictures placed in the book without the main character's picture, by job key.
    func unreferenced() -> [String: String] {
        file.pages.compactMapValues { $0.state == .unreferenced ? $0.image : nil }
    }

    func save() throws {
        guard writes else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicOutput.write(try encoder.encode(file), to: url)
    }
}
