import Foundation
import BookModel

/// `illustrate --status`: each picture's state as the journal holds it. Reads files only, so an app
/// can poll it while a run goes on without anyone being called or paid.
public struct IllustrationStatus: Codable, Sendable {
    public struct Picture: Codable, Sendable, Equatable {
        public var key: String
        public var label: String
        public var state: String
        /// Calls made for it (0 when it came from the cache or a picture already there).
        public var attempts: Int
        public var lastError: String?
        public var image: String?
        /// free (drawn offline), paid (the provider bills each call) or none (no call made).
        public var costClass: String
    }

    /// Bumped when a field changes meaning; apps check it before reading the rest.
    public var version = 1
    public var book: String
    public var journal: String
    /// False before any run: then `pictures` is empty.
    public var journalFound: Bool
    public var provider: String?
    public var model: String?
    public var pictures: [Picture]
    /// How many pictures are in each state.
    public var counts: [String: Int]

    public static func read(bookAt url: URL) throws -> IllustrationStatus {
        let (book, bookFile, journalURL) = try IllustrationFiles.locate(url)
        var status = IllustrationStatus(book: bookFile.lastPathComponent, journal: journalURL.lastPathComponent,
                                        journalFound: false, provider: nil, model: nil, pictures: [], counts: [:])
        guard FileManager.default.fileExists(atPath: journalURL.path) else { return status }
        let file: JournalFile
        do { file = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: journalURL)) } catch {
            throw IllustrateError("\(journalURL.path) is not an illustrate journal (\(error.localizedDescription)); "
                                  + "delete it and run illustrate again: pictures already made stay in the book")
        }
        status.journalFound = true
        status.provider = file.provider
        status.model = file.model
        let billed = ProviderName(rawValue: file.provider) != .local
        let runGone = file.run.map { !$0.isRunning } ?? false
        let order = Self.order(book)
        let keys = file.pages.keys.sorted { (order[$0] ?? Int.max, $0) < (order[$1] ?? Int.max, $1) }
        status.pictures = keys.map { key in
            let e = file.pages[key]!
            // The attempt a retry waits for has not been made yet.
            let attempts = max(0, (e.attempt ?? 0) - (e.state == .retrying ? 1 : 0))
            let state = runGone && JournalEntry.underWay.contains(e.state) ? "interrupted" : e.state.rawValue
            return Picture(key: key, label: e.label, state: state, attempts: attempts, lastError: e.reason,
                           image: e.image, costClass: !billed ? "free" : attempts == 0 ? "none" : "paid")
        }
        for p in status.pictures { status.counts[p.state, default: 0] += 1 }
        return status
    }

    /// The order a reader meets them: the character, the cover, then the pages.
    static func order(_ book: Book) -> [String: Int] {
        var order = ["character": 0, "cover": 1]
        for (i, p) in book.pages.enumerated() { order[p.id ?? "page-\(i + 1)"] = i + 2 }
        return order
    }

    /// The plain listing.
    public var lines: [String] {
        guard journalFound else { return ["illustrate: no journal (\(journal)) beside \(book): no picture has been generated for it yet"] }
        var out = ["illustrate: \(book), \(provider ?? "?") (\(model ?? "?")): "
                   + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")]
        for p in pictures {
            var line = "  \(p.label) (\(p.key)): \(p.state), \(p.attempts) attempt\(p.attempts == 1 ? "" : "s"), \(p.costClass)"
            if let image = p.image { line += " → \(image)" }
            if let error = p.lastError { line += "; last error: \(error)" }
            out.append(line)
        }
        return out
    }
}

/// Where a run keeps the book it fills and its journal, for a book.json or an app's file.
enum IllustrationFiles {
    static func locate(_ url: URL) throws -> (book: Book, bookFile: URL, journal: URL) {
        let (book, bookFile, _) = try Illustrator.load(url)
        return (book, bookFile, bookFile.deletingPathExtension().appendingPathExtension("illustrate.json"))
    }
}
