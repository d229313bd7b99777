import Foundation

/// Reads one app's saved file. `SourceFormat` lists the importers.
protocol AppImporter {
    /// The app, as help texts name it ("MemoirAI").
    static var appName: String { get }
    /// The file, as messages name it ("MemoirAI storybook").
    static var formatName: String { get }
    /// The top-level keys that tell the app's file from the others.
    static var signature: [String] { get }
    /// The book, or a `DecodingError` (the file is not what the app writes) or an `ImportFailure`.
    static func book(from data: Data) throws -> ImportedBook
}

/// What an importer makes of an app's file: our book, and what it had to leave out or guess.
struct ImportedBook: Sendable {
    var book: Book
    /// Paths are in the app's file, so a person can find what was skipped.
    var warnings: [PathIssue] = []
    /// Where in the app's file the book's narration comes from: the app saves its recording later
    /// than the story, so a recording not (yet) beside the file leaves the book without narration,
    /// with a warning, rather than failing it.
    var narrationSource: PathBuilder?
}

/// The app's file decoded, but no book can be made of it (a story with no text at all).
struct ImportFailure: Error, Sendable {
    var path: PathBuilder
    var message: String
}

/// How Swift's synthesized `Codable` writes an enum case with associated values:
/// `{"caseName": {"label": value, …}}`, `_0` for an unlabelled value.
struct EnumCaseEnvelope {
    let name: String
    let values: KeyedDecodingContainer<PlainKey>

    init(from decoder: any Decoder, noun: String, known: [String]) throws {
        let outer = try decoder.container(keyedBy: PlainKey.self)
        guard outer.allKeys.count == 1, let key = outer.allKeys.first else {
            let found = outer.allKeys.map { "\"\($0.stringValue)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected \(noun): an object with exactly one of the keys \(known.joined(separator: ", ")); found "
                    + (found.isEmpty ? "an empty object" : found)))
        }
        name = key.stringValue
        values = try outer.nestedContainer(keyedBy: PlainKey.self, forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, _ label: String) throws -> T {
        try values.decode(type, forKey: PlainKey(label))
    }
}

extension String {
    /// nil for an empty or all-whitespace string: apps write "" where they mean "none".
    var nonBlank: String? {
        trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : self
    }
}

extension Data {
    var nonEmpty: Data? { isEmpty ? nil : self }
}
