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
}

extension BookDocument {
    /// Checks the book as far as resolving it: JSON and schema (done by `open`), theme and tokens
    /// and their ranges, texts, image files (confined to the book's folder, probed, and decoded as
    /// an export would). With `strict`, a missing image is an error.
    public func validate() throws(BookRenderError) -> ValidationReport {
        let resolved = try resolve()
        try checkPictureData(resolved)
        return ValidationReport(file: file, source: "\(source)", theme: resolved.themeName, entries: resolved.pages.count,
                                diagnostics: loadWarnings + resolved.findings.map(Diagnostic.init))
    }
}

extension BookDocument {
    /// Decodes every picture as an export would (see `ImageCheck.data`), so that what an export
    /// would refuse, `validate` refuses first; each picture once, however often it is used.
    func checkPictureData(_ resolved: ResolvedBook) throws(BookRenderError) {
        var uses: [(ImageAsset, String)] = []
        if let asset = resolved.cover.image.asset { uses.append((asset, resolved.book.cover?.photo != nil ? "$.cover.photo" : "$.characters.main.image")) }
        for page in resolved.pages {
            if let asset = page.image.asset { uses.append((asset, "$.pages[\(page.index)].image")) }
        }
        if let asset = resolved.mainCharacterImage { uses.append((asset, "$.characters.main.image")) }
        var checked = Set<String>()
        var problems: [BookIssue] = []
        for (asset, jsonPath) in uses where checked.insert(asset.origin).inserted {
            do {
                try ImageCheck.data(asset.data, info: asset.info)
            } catch {
                problems.append(BookIssue(path: jsonPath, message: "\(asset.origin) is not a usable image: \(error)"))
            }
        }
        guard problems.isEmpty else {
            throw BookRenderError(BookError(kind: .validation, file: file ?? "book", issues: problems))
        }
    }
}
