import Foundation

/// Words whose hyphenation points are given, as TeX's `\hyphenation` gives them: a file of one
/// word a line with a hyphen at each allowed point (`name-space`), read before the dictionary's
/// patterns, which split some compounds inside a part ("names-pace"). `#` starts a comment.
/// Words match whole and ignoring case. One file per language in a folder (`en.txt`, or
/// `en-GB.txt` for a region of its own), loaded once per file and shared.
public struct HyphenationExceptions: Sendable {
    /// Lowercased word → the number of characters before each allowed break, in order.
    let words: [String: [Int]]

    public init(words: [String: [Int]]) { self.words = words }

    /// The breaks of a word listed (lowercased), or nil when it is not listed.
    func breaks(ofLowercased word: String) -> [Int]? { words[word] }

    /// Reads an exceptions file. A word with anything but letters and hyphens is refused, naming
    /// its line.
    public static func read(_ url: URL) throws -> HyphenationExceptions {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw ExceptionsError("cannot read the hyphenation exceptions \(url.path): \(error.localizedDescription)")
        }
        var words: [String: [Int]] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            var word = "", breaks: [Int] = [], count = 0
            for ch in line.lowercased() {
                if ch == "-" {
                    guard count > 0, breaks.last != count else { throw bad(url, n, line) }
                    breaks.append(count)
                } else if ch.isLetter {
                    word.append(ch)
                    count += 1
                } else {
                    throw bad(url, n, line)
                }
            }
            guard count > 0, breaks.last != count else { throw bad(url, n, line) }
            words[word] = breaks
        }
        return HyphenationExceptions(words: words)
    }

    private static func bad(_ url: URL, _ n: Int, _ line: String) -> ExceptionsError {
        ExceptionsError("\(url.lastPathComponent):\(n + 1): \"\(line)\" is not a word with hyphens at its break points (name-space)")
    }

    /// The exceptions for a BCP 47 tag from `folder` (`en-GB` reads `en-GB.txt`, else `en.txt`);
    /// nil when the folder has none for the language, or the file cannot be read.
    public static func forLanguage(_ language: String, in folder: URL) -> HyphenationExceptions? {
        let subtags = language.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        guard let lang = subtags.first?.lowercased(), !lang.isEmpty, lang.allSatisfy(\.isLetter) else { return nil }
        var names: [String] = []
        if let region = subtags.dropFirst().first(where: { $0.count == 2 }) { names.append("\(lang)-\(region.uppercased()).txt") }
        names.append("\(lang).txt")
        for name in names {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return cached(url) }
        }
        return nil
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: HyphenationExceptions?] = [:]

    private static func cached(_ url: URL) -> HyphenationExceptions? {
        lock.lock()
        defer { lock.unlock() }
        if let known = loaded[url.path] { return known }
        let read = try? read(url)
        loaded[url.path] = read
        return read
    }
}

public struct ExceptionsError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
