import Foundation
import BookResolve
import BookLayout

/// What a laid-out book holds, for reports: its pages, the pictures with where each is drawn
/// largest, and the findings.
extension ExportReport {
    init(tree: PageTree, document: BookDocument, resolved: ResolvedBook, fonts: Set<String>) {
        let findings = document.loadWarnings + tree.findings.map(Diagnostic.init)
        self.init(source: "\(document.source)", title: resolved.book.title, theme: resolved.themeName,
                  profile: resolved.profile?.name, pageCount: tree.pages.count, pages: Self.pageEntries(tree),
                  pdf: nil, writtenPages: [], pngFiles: [], placeholders: findings.filter(\.isPlaceholder),
                  findings: findings, fonts: fonts.sorted(), images: Self.imageEntries(tree), timings: [], pageTree: nil)
    }

    static func pageEntries(_ tree: PageTree) -> [PageEntry] {
        tree.pages.map { p in
            PageEntry(number: p.number, side: p.side.rawValue, role: p.role.rawValue, sourcePage: p.sourcePage,
                      images: p.images.map(\.asset.origin),
                      placeholder: p.items.contains { if case .placeholderArt = $0 { return true } else { return false } },
                      blankReason: p.blankReason,
                      art: p.art.map { ArtEntry(page: p.number, $0) })
        }
    }

    /// Each picture once, in the order first drawn.
    static func imageEntries(_ tree: PageTree) -> [ImageEntry] {
        var entries: [String: ImageEntry] = [:]
        var order: [String] = []
        for page in tree.pages {
            for box in page.images {
                let asset = box.asset
                let dpi = Int(box.effectiveDPI.rounded(.down))
                if var entry = entries[asset.id] {
                    if !entry.pages.contains(page.number) { entry.pages.append(page.number) }
                    entry.lowestEffectiveDPI = min(entry.lowestEffectiveDPI, dpi)
                    entries[asset.id] = entry
                } else {
                    order.append(asset.id)
                    entries[asset.id] = ImageEntry(origin: asset.origin, format: "\(asset.info.format)",
                                                   pixels: "\(asset.info.orientedWidth)×\(asset.info.orientedHeight)",
                                                   colorModel: "\(asset.info.colorModel)", bytes: asset.byteCount,
                                                   pages: [page.number], lowestEffectiveDPI: dpi)
                }
            }
        }
        return order.compactMap { entries[$0] }
    }
}
