import Foundation
import BookLayout

/// A book as it would print: its pages, missing illustrations, fonts and pictures with the
/// resolution each is drawn at.
public struct BookDescription: Sendable, Codable {
    public var title: String
    public var kind: String
    public var source: String
    public var theme: String
    public var trimInches: String
    public var physicalPages: Int
    public var missingIllustrations: [String]
    public var fonts: [String]
    public var images: [ExportReport.ImageEntry]
    /// Each page's crop and text position over its picture.
    public var art: [ArtEntry]
    public var warnings: [String]
    /// Every finding, load warnings first; `missingIllustrations` and `warnings` are their texts.
    public var findings: [Diagnostic] = []
    /// Every blank page put in, and why.
    public var blankPages: [BlankPage] = []
    /// About how many characters a full line of body text holds, when the theme fitted the body to
    /// the page (nil when the book keeps its own margins).
    public var bodyCharactersPerLine: Int?

    public struct BlankPage: Sendable, Codable, Equatable {
        public var page: Int
        public var why: String
    }
}

extension BookDocument {
    /// Lays the book out (drawing nothing) and describes it.
    public func describe() throws(BookRenderError) -> BookDescription {
        let (resolved, resources) = try resolveWithResources()
        let tree = try BookRenderError.wrap {
            BookLayouter(typesetter: try typesetter(resolved, resources), textThreads: settings.workers).layout(resolved)
        }
        var fonts = Set<String>()
        for page in tree.pages { for box in page.textBoxes { fonts.formUnion(box.layout.fontFiles) } }
        let findings = tree.findings.map(Diagnostic.init)
        var description = BookDescription(
            title: resolved.book.title, kind: resolved.book.kind.rawValue, source: "\(source)", theme: resolved.themeName,
            trimInches: "\(Self.inches(resolved.trim.width)) × \(Self.inches(resolved.trim.height))",
            physicalPages: tree.pages.count,
            missingIllustrations: findings.filter(\.isPlaceholder).map(\.description), fonts: fonts.sorted(),
            images: ExportReport.imageEntries(tree), art: ArtEntry.entries(tree),
            warnings: findings.filter { !$0.isPlaceholder }.map(\.description),
            blankPages: tree.pages.compactMap { p in p.blankReason.map { BookDescription.BlankPage(page: p.number, why: $0) } },
            bodyCharactersPerLine: tree.bodyMeasure.map { Int($0.rounded()) })
        description.findings = loadWarnings + findings
        return description
    }

    /// Points as inches the way `%g` prints them: 8.25, 11, 5.8268.
    static func inches(_ points: Double) -> String { String(format: "%g", points / 72) }
}
