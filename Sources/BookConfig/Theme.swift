import Foundation
import BookModel

/// A theme file from `templates/`: a name and a complete set of design tokens.
public struct Theme: Sendable {
    public var name: String
    public var description: String
    /// The theme's tokens as JSON, so a book's partial overrides can be merged over them before typing.
    public var rawTokens: JSONValue

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
        return Theme(name: name, description: description, rawTokens: tokens)
    }

    /// The theme's tokens with `overrides` merged over them, typed and checked.
    public func tokens(overriddenBy overrides: JSONValue?) throws -> DesignTokens {
        let merged = overrides.map { rawTokens.merging($0) } ?? rawTokens
        let data = try JSONEncoder().encode(merged)
        do {
            return try JSONDecoder().decode(DesignTokens.self, from: data)
        } catch let error as DecodingError {
            throw ConfigError("theme \"\(name)\" with the book's token overrides: \(ConfigError.describe(error))")
        }
    }
}

public struct ConfigError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// A decoding error as "tokens.palette.accent: what was wrong".
    static func describe(_ error: DecodingError, root: String = "tokens") -> String {
        func path(_ keys: [CodingKey]) -> String {
            ([root] + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }).joined(separator: ".")
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
