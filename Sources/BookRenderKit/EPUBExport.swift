import Foundation
import BookBase
import BookModel
import BookLayout
import BookRender

extension BookDocument {
    /// The e-book's identity and dates. The identifier is a name-based UUID of the book's title,
    /// author, date and text, so the same book exported again keeps it (and gives the same bytes).
    func epubBook(_ tree: PageTree, narration: [NarrationClip]) -> EPUBBook {
        let digest = SHA256()
        for part in [tree.title, tree.author ?? "", tree.created ?? ""] + tree.pages.map(\.text) {
            digest.update(Data(part.utf8))
            digest.update(Data([0]))
        }
        let hex = Array(digest.finish().prefix(32))
        // Version 8 (custom) and the RFC 4122 variant bits.
        var u = hex
        u[12] = "8"
        u[16] = ["8", "9", "a", "b"][Int(String(u[16]), radix: 16)! & 3]
        let s = String(u)
        let uuid = [s.prefix(8), s.dropFirst(8).prefix(4), s.dropFirst(12).prefix(4), s.dropFirst(16).prefix(4), s.dropFirst(20)]
            .joined(separator: "-")
        let created = tree.created.flatMap(BookDate.parse)
        let modified = BookDate.format(created ?? Date(timeIntervalSince1970: 946_684_800))
        return EPUBBook(identifier: "urn:uuid:\(uuid)", modified: modified,
                        date: created.map { String(BookDate.format($0).prefix(10)) }, narration: narration)
    }
}
