import Foundation

/// The kinds of file a book can be loaded from. A new app's format is its importer under Importers/
/// and a case here; the compiler asks for its line in `importer`.
public enum SourceFormat: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// bookrender's own book.json.
    case bookJSON
    /// MemoirAI's `PersistableStorybook`.
    case memoirAI
    /// Roger's `GeneratedStory`.
    case roger
    /// InfiniteStories' `Story`.
    case infiniteStories

    /// What turns the app's file into a book; nil for book.json, which is decoded as it is.
    var importer: (any AppImporter.Type)? {
        switch self {
        case .bookJSON: nil
        case .memoirAI: MemoirAIImporter.self
        case .roger: RogerImporter.self
        case .infiniteStories: InfiniteStoriesImporter.self
        }
    }

    public var description: String { importer?.formatName ?? "book.json" }

    /// The top-level keys that identify the format; only these are looked at, so extra fields never
    /// change the verdict.
    var signature: [String] { importer?.signature ?? ["schema"] }

    /// The formats whose signature keys the top-level object holds, most specific first.
    static func detect(topLevelKeys keys: Set<String>) -> SourceFormat? {
        // A book.json's "schema" is checked last: an app file could in principle carry a field of that name.
        for format in allCases.filter({ $0 != .bookJSON }) + [.bookJSON] where format.signature.allSatisfy(keys.contains) {
            return format
        }
        return nil
    }

    /// For the "not a recognised format" message.
    static var recognised: String {
        allCases.map { "\($0) (\($0.signature.map { "\"\($0)\"" }.joined(separator: " and ")))" }
            .joined(separator: ", ")
    }

    /// The apps whose files are read, for help texts: "MemoirAI, Roger or InfiniteStories".
    public static var appNames: String {
        let names = allCases.compactMap { $0.importer?.appName }
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
    }
}
