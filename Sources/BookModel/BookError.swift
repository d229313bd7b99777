import Foundation

/// One thing wrong (or worth a warning) in a book file, located as precisely as the stage that found it can.
public struct BookIssue: Sendable, Equatable, CustomStringConvertible {
    /// JSON path in the file (`$.pages[3].type`); nil when the problem is the file as a whole.
    public var path: String?
    /// 1-based; a column counts characters, not bytes, so it matches what an editor shows.
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(path: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.path = path; self.line = line; self.column = column; self.message = message
    }

    /// The issue without the file name: `$.pages[3].type: … (line 12, column 18)` or `12:18: …`.
    public var description: String {
        if let path {
            let at = line.map { l in " (line \(l)" + (column.map { ", column \($0)" } ?? "") + ")" } ?? ""
            return "\(path): \(message)\(at)"
        }
        if let line {
            return "\(line):\(column ?? 1): \(message)"
        }
        return message
    }

    /// The issue as a user reads it: always starts with the file, so batch logs stay unambiguous.
    public func formatted(file: String) -> String {
        if path == nil, line != nil { return "\(file):\(description)" }
        return "\(file): \(description)"
    }
}

/// Why a book could not be loaded. `kind` lets a command line map failures to exit codes;
/// `description` is one line per issue, each naming the file.
public struct BookError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The file could not be read.
        case io
        /// Not well-formed JSON.
        case syntax
        /// Well-formed JSON of the wrong shape: a missing field, a wrong type, an unknown enum value.
        case schema
        /// A format or schema version this bookrender does not read.
        case unsupported
        /// Decoded, but a book cannot be made from it (a page without what its type needs, a path
        /// leaving the book's folder…). Every such problem is reported, not only the first.
        case validation
    }

    public var kind: Kind
    /// The file as the user named it.
    public var file: String
    public var issues: [BookIssue]
    /// Warnings about the same file, already formatted. They often explain the error: a misspelt
    /// `"imgae"` is ignored, and the photo page then lacks its image.
    public var warnings: [String]

    public init(kind: Kind, file: String, issues: [BookIssue], warnings: [String] = []) {
        self.kind = kind; self.file = file; self.issues = issues; self.warnings = warnings
    }

    public init(kind: Kind, file: String, path: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.init(kind: kind, file: file, issues: [BookIssue(path: path, line: line, column: column, message: message)])
    }

    /// The issues, one line each, then the warnings.
    public var description: String {
        (issues.map { $0.formatted(file: file) } + warnings).joined(separator: "\n")
    }
}
