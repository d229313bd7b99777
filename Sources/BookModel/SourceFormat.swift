import Foundation

/// The kinds of file a book can be loaded from.
public enum SourceFormat: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// bookrender's own book.json.
    case bookJSON
    /// MemoirAI's `PersistableStorybook`.
    case memoirAI
    /// Roger's `GeneratedStory`.
    case roger
    /// InfiniteStories' `Story`.
    case infiniteStories

    public var description: String {
        switch self {
        case .bookJSON: return "book.json"
        case .memoirAI: return "MemoirAI storybook"
        case .roger: return "Roger story"
        case .infiniteStories: return "InfiniteStories story"
        }
    }

    /// The top-level keys that identify the format; only these are looked at, so extra fields never
    /// change the verdict.
    var signature: [String] {
        switch self {
        case .bookJSON: return ["schema"]
        case .memoirAI: return ["pageItems", "profileID"]
        case .roger: return ["characterManifest", "pages"]
        case .infiniteStories: return ["content", "playCount"]
        }
    }

    /// The formats whose signature keys the top-level object holds, most specific first.
    static func detect(topLevelKeys keys: Set<String>) -> SourceFormat? {
        // A book.json's "schema" is checked last: an app file could in principle carry a field of that name.
        for format in [SourceFormat.memoirAI, .roger, .infiniteStories, .bookJSON]
        where format.signature.allSatisfy(keys.contains) {
            return format
        }
        return nil
    }

    /// For the "not a recognised format" message.
    static var recognised: String {
        allCases.map { "\($0) (\($0.signature.map { "\"\($0)\"" }.joined(separator: " and ")))" }
            .joined(separator: ", ")
    }
}
