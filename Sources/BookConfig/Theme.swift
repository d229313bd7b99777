import Foundation
import BookModel

/// A theme file from `templates/`: a name and a complete set of design tokens.
public struct Theme: Sendable {
    public var name: String
    public var description: String
    /// The kind of book the theme is made for (its file's `"kind"`), nil when it does not say.
    public var kind: BookKind? = nil
    /// The theme's tokens as JSON, so a book's partial overrides can be merged over them before typing.
    public var rawTokens: JSONValue
    /// The theme file, for messages about its own values.
    public var file: URL? = nil

    public static func defaultName(for kind: BookKind) -> String {
        kind == .memoir ? "memoir" : "picture-book"
    }

    /// Every theme found in `directory` (files `*.json` with a `tokens` object).
    public static func available(in directory: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(5)) }.sorted()
    }

    public static func load(named name: String, from directory: URL) throws -> Theme {
        guard !name.isEmpty, name.utf8.allSatisfy({ isNameByte($0) || $0 == UInt8(ascii: ".") }), !name.hasPrefix(".") else {
            throw ConfigError("theme name \"\(name)\" may only hold letters, digits, '.', '_' and '-'")
        }
        let url = directory.appendingPathComponent(name + ".json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let known = available(in: directory).joined(separator: ", ")
            throw ConfigError("no theme \"\(name)\" in \(directory.path) (available: \(known))")
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigError("\(url.path): not valid JSON: \(error.localizedDescription)")
        }
        guard let tokens = value["tokens"], case .object = tokens else {
            throw ConfigError("\(url.path): a theme needs a \"tokens\" object")
        }
        var description = ""
        if case .string(let d)? = value["description"] { description = d }
        var kind: BookKind?
        if let declared = value["kind"] {
            guard case .string(let k) = declared, let known = BookKind(rawValue: k) else {
                throw ConfigError("\(url.path): $.kind: a theme is made for a \"storybook\" or a \"memoir\"")
            }
            kind = known
        }
        return Theme(name: name, description: description, kind: kind, rawTokens: tokens, file: url)
    }

    /// The theme's tokens with `overrides` merged over them, typed and checked against
    /// `TokenRanges`. A problem is placed where its value came from: the book's `$.tokens…` when
    /// the book overrides it, else the theme file.
    public func tokens(overriddenBy overrides: JSONValue?) throws -> DesignTokens {
        let merged = overrides.map { rawTokens.merging($0) } ?? rawTokens
        let data = try JSONEncoder().encode(merged)
        let tokens: DesignTokens
        do {
            tokens = try JSONDecoder().decode(DesignTokens.self, from: data)
        } catch let error as DecodingError {
            let (keys, problem) = ConfigError.split(error)
            throw ConfigError(issues: [issue(at: keys, problem, overrides: overrides)])
        }
        let violations = TokenRanges.violations(tokens)
        guard violations.isEmpty else {
            throw ConfigError(issues: violations.map {
                issue(at: $0.path.split(separator: ".").map(String.init), $0.message, overrides: overrides)
            })
        }
        return tokens
    }

    private func issue(at keys: [String], _ message: String, overrides: JSONValue?) -> ConfigIssue {
        let path = "$.tokens" + keys.map { $0.first?.isNumber == true ? "[\($0)]" : "." + $0 }.joined()
        let fromBook = overrides.map { Self.contains($0, keys) } ?? false
        return fromBook
            ? ConfigIssue(file: nil, jsonPath: path, message: message)
            : ConfigIssue(file: file?.path ?? "theme \"\(name)\"", jsonPath: path, message: message + " (in theme \"\(name)\")")
    }

    /// Whether `value` has something at `keys`, or a non-object where an object would continue them.
    private static func contains(_ value: JSONValue, _ keys: [String]) -> Bool {
        guard let first = keys.first else { return true }
        guard case .object(let members) = value else { return true }
        guard let next = members[first] else { return false }
        return contains(next, Array(keys.dropFirst()))
    }
}

/// One problem with a value of a theme, the book's token overrides or a profile: `file` nil
/// for the book itself, which its caller names.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var jsonPath: String
    public var message: String
    public init(file: String?, jsonPath: String, message: String) {
        self.file = file; self.jsonPath = jsonPath; self.message = message
    }
    public var description: String { (file.map { "\($0): " } ?? "") + "\(jsonPath): \(message)" }
}

public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// Each problem with its place, when they are known.
    public var issues: [ConfigIssue] = []
    public init(_ message: String) { self.message = message }
    public init(issues: [ConfigIssue]) {
        self.issues = issues
        self.message = issues.map(\.description).joined(separator: "\n")
    }
    public var description: String { message }

    /// A decoding error as its coding path's keys and what was wrong.
    static func split(_ error: DecodingError) -> ([String], String) {
        func keys(_ path: [CodingKey]) -> [String] { path.map { $0.intValue.map(String.init) ?? $0.stringValue } }
        switch error {
        case .keyNotFound(let key, let ctx): return (keys(ctx.codingPath + [key]), "is missing")
        case .typeMismatch(let type, let ctx): return (keys(ctx.codingPath), type == Bool.self ? "expected true or false" : "expected \(type)")
        case .valueNotFound(let type, let ctx): return (keys(ctx.codingPath), "expected \(type)")
        case .dataCorrupted(let ctx): return (keys(ctx.codingPath), ctx.debugDescription)
        @unknown default: return ([], "\(error)")
        }
    }

    /// A decoding error as "$.bleed.top: what was wrong".
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            "$" + keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        }
        switch error {
        case .keyNotFound(let key, let ctx): return "\(path(ctx.codingPath + [key])) is missing"
        case .typeMismatch(let type, let ctx): return "\(path(ctx.codingPath)): expected \(type)"
        case .valueNotFound(let type, let ctx): return "\(path(ctx.codingPath)): expected \(type)"
        case .dataCorrupted(let ctx): return "\(path(ctx.codingPath)): \(ctx.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
