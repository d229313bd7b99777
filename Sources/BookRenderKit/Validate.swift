import Foundation
import BookModel
import BookResolve

/// What checking a book found without rendering it.
public struct ValidationReport: Sendable, Codable {
    public var file: String?
    public var source: String
    public var theme: String
    /// Entries in the book's `pages`.
    public var entries: Int
    /// Load warnings, then resolve's findings (missing images, placeholders…).
    public var diagnostics: [Diagnostic]
    public var isValid: Bool { diagnostics.errors.isEmpty }

    // In JSON, under the name every report gives its findings.
    private enum CodingKeys: String, CodingKey { case file, source, theme, entries, diagnostics = "findings" }
}

extension BookDocument {
    /// Checks the book as far as resolving it: JSON and schema (done by `open`), theme and tokens
    /// and their ranges, texts, image files (confined to the book's folder, probed, and decoded as
    /// an export would). With `strict`, a missing image is an error.
    public func validate() throws(BookRenderError) -> ValidationReport {
        let resolved = try resolve()
        try checkPictureData(resolved, threads: settings.workers)
        return ValidationReport(file: file, source: "\(source)", theme: resolved.themeName, entries: resolved.pages.count,
                                diagnostics: loadWarnings + resolved.findings.map(Diagnostic.init))
    }
}
