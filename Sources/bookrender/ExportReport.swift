import Foundation
import BookModel
import BookResolve
import BookLayout

/// The machine-readable account of an export: what each physical page is, and every finding.
struct ExportReport: Encodable {
    struct PageEntry: Encodable {
        var number: Int
        var side: String
        var role: String
        var sourcePage: Int?
        var images: [String]
        var placeholder: Bool
    }
    struct FindingEntry: Encodable {
        var severity: String
        var kind: String
        var sourcePage: Int?
        var pages: [Int]
        var message: String
    }

    var source: String
    var pageCount: Int
    var pages: [PageEntry]
    var placeholders: [FindingEntry]
    var findings: [FindingEntry]

    init(tree: PageTree, source: SourceFormat) {
        self.source = "\(source)"
        pageCount = tree.pages.count
        pages = tree.pages.map { p in
            PageEntry(number: p.number, side: p.side.rawValue, role: p.role.rawValue, sourcePage: p.sourcePage,
                      images: p.images.map(\.asset.origin),
                      placeholder: p.items.contains { if case .placeholderArt = $0 { return true } else { return false } })
        }
        let all = tree.findings.map {
            FindingEntry(severity: $0.severity.rawValue, kind: $0.kind.rawValue, sourcePage: $0.sourcePage,
                         pages: $0.physicalPages, message: $0.message)
        }
        findings = all
        placeholders = all.filter { $0.kind == Finding.Kind.placeholder.rawValue || $0.kind == Finding.Kind.missingImage.rawValue }
    }

    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
