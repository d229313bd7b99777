import Foundation
import BookModel
import BookResolve
import BookRender

/// One finding about a book, a page or a file, located as precisely as the stage that found it can:
/// load (file, JSON path, line and column), resolve and layout (entry of `pages`, physical pages),
/// preflight (physical page, image file). Every report and error carries these, in the shape
/// `schema/report.schema.json` publishes as `finding`: `severity`, `code`, `message`, `page`,
/// `jsonPath` and `hint` always present (null when unknown), with the stage's own fields beside them.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }
    public enum Stage: String, Sendable, Codable { case load, layout, preflight, compare }

    public var severity: Severity
    public var stage: Stage
    /// What kind of finding: for load `syntax`, `schema`, `validation`, `unsupported`, `io`,
    /// `warning`; for layout `placeholder`, `missingImage`, `missingGlyph`, `noHyphenation`,
    /// `blankPageInserted`, `other`; for preflight its checks (`lowResolution`, `outsideSafeArea`, …).
    public var kind: String
    public var message: String
    /// The file concerned, as the user named it (the book, an image, a PDF).
    public var file: String?
    /// `$.pages[3].image` for a finding in a book file.
    public var jsonPath: String?
    public var line: Int?
    public var column: Int?
    /// Index into the book's `pages` when the finding is about one entry.
    public var sourcePage: Int?
    /// Physical page numbers (1-based) when known.
    public var pages: [Int]
    /// What to do about it, when the finding knows better than its message says.
    public var hint: String?

    /// The finding's code in the common schema: its `kind`.
    public var code: String { kind }
    /// The first physical page it concerns, nil when it is about no one page.
    public var page: Int? { pages.first }

    public init(_ severity: Severity, stage: Stage, kind: String, message: String, file: String? = nil,
                jsonPath: String? = nil, line: Int? = nil, column: Int? = nil, sourcePage: Int? = nil, pages: [Int] = [],
                hint: String? = nil) {
        self.severity = severity; self.stage = stage; self.kind = kind; self.message = message; self.file = file
        self.jsonPath = jsonPath; self.line = line; self.column = column; self.sourcePage = sourcePage; self.pages = pages
        self.hint = hint
    }

    private enum CodingKeys: String, CodingKey {
        case severity, code, message, page, jsonPath, hint, stage, kind, file, line, column, sourcePage, pages
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decodeIfPresent(String.self, forKey: .kind) ?? c.decode(String.self, forKey: .code)
        let page = try c.decodeIfPresent(Int.self, forKey: .page)
        self.init(try c.decode(Severity.self, forKey: .severity), stage: try c.decodeIfPresent(Stage.self, forKey: .stage) ?? .load,
                  kind: kind, message: try c.decode(String.self, forKey: .message),
                  file: try c.decodeIfPresent(String.self, forKey: .file), jsonPath: try c.decodeIfPresent(String.self, forKey: .jsonPath),
                  line: try c.decodeIfPresent(Int.self, forKey: .line), column: try c.decodeIfPresent(Int.self, forKey: .column),
                  sourcePage: try c.decodeIfPresent(Int.self, forKey: .sourcePage),
                  pages: try c.decodeIfPresent([Int].self, forKey: .pages) ?? page.map { [$0] } ?? [],
                  hint: try c.decodeIfPresent(String.self, forKey: .hint))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(severity, forKey: .severity)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encode(page, forKey: .page)
        try c.encode(jsonPath, forKey: .jsonPath)
        try c.encode(hint, forKey: .hint)
        try c.encode(stage, forKey: .stage)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(file, forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(column, forKey: .column)
        try c.encodeIfPresent(sourcePage, forKey: .sourcePage)
        try c.encode(pages, forKey: .pages)
    }

    /// As the command line prints it: each stage's own wording, which users and logs already know.
    public var description: String {
        switch stage {
        case .load:
            if severity == .warning { return "warning: \(message)" }
            return BookIssue(path: jsonPath, line: line, column: column, message: message).formatted(file: file ?? "book")
        case .layout:
            var parts = [severity.rawValue]
            if let first = pages.first, let last = pages.last {
                parts.append(pages.count == 1 ? "page \(first)" : "pages \(first)–\(last)")
            }
            if let sourcePage { parts.append("$.pages[\(sourcePage)]") }
            return parts.joined(separator: ": ") + ": " + message
        case .preflight, .compare:
            return ([severity.rawValue, kind] + (pages.first.map { ["page \($0)"] } ?? []) + (file.map { [$0] } ?? []))
                .joined(separator: ": ") + ": " + message
        }
    }

    public var isPlaceholder: Bool { stage == .layout && (kind == "placeholder" || kind == "missingImage") }
}

extension Diagnostic {
    init(_ finding: Finding) {
        self.init(finding.severity == .error ? .error : .warning, stage: .layout, kind: finding.kind.rawValue,
                  message: finding.message, jsonPath: finding.sourcePage.map { "$.pages[\($0)]" },
                  sourcePage: finding.sourcePage, pages: finding.physicalPages)
    }

    init(_ issue: BookIssue, file: String, kind: BookError.Kind) {
        self.init(.error, stage: .load, kind: kind.rawValue, message: issue.message, file: file, jsonPath: issue.path,
                  line: issue.line, column: issue.column)
    }

    /// A load warning, already worded with its file and JSON path.
    init(loadWarning text: String, file: String) {
        self.init(.warning, stage: .load, kind: "warning", message: text, file: file)
    }

    init(_ finding: PreflightFinding) {
        self.init(finding.severity == .error ? .error : .warning, stage: .preflight, kind: finding.check.rawValue,
                  message: finding.message, file: finding.file, pages: finding.page.map { [$0] } ?? [])
    }
}

extension Array where Element == Diagnostic {
    public var errors: [Diagnostic] { filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { filter { $0.severity == .warning } }
}
