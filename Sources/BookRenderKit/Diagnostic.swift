import Foundation
import BookModel
import BookResolve
import BookRender

/// One finding about a book, a page or a file, located as precisely as the stage that found it can:
/// load (file, JSON path, line and column), resolve and layout (entry of `pages`, physical pages),
/// preflight (physical page, image file). Every report and error carries these.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }
    public enum Stage: String, Sendable, Codable { case load, layout, preflight }

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

    public init(_ severity: Severity, stage: Stage, kind: String, message: String, file: String? = nil,
                jsonPath: String? = nil, line: Int? = nil, column: Int? = nil, sourcePage: Int? = nil, pages: [Int] = []) {
        self.severity = severity; self.stage = stage; self.kind = kind; self.message = message; self.file = file
        self.jsonPath = jsonPath; self.line = line; self.column = column; self.sourcePage = sourcePage; self.pages = pages
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
        case .preflight:
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
