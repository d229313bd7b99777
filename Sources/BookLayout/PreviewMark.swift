import BookConfig
import BookResolve

/// The mark a preview's pages carry, so a page shown before the book is bought is not taken for
/// the book: a label in the theme's accent at the page's top outer corner, its word in the
/// theme's title face on the paper colour, over a soft shadow like the theme's frames.
public enum PreviewMark {
    public static let word = "Preview"

    /// `tree`'s pages with the mark put on top of each.
    public static func mark(_ tree: inout PageTree, book: ResolvedBook, typesetter: Typesetter) {
        let tokens = book.tokens
        let title = tokens.typography.title
        let size = max(10, min(tree.trim.width, tree.trim.height) * 0.035)
        let style = TextStyle(family: title.family, size: size, weight: max(title.weight, 600), italic: false, lineHeight: 1.2,
                              letterSpacing: size * 0.12)
        let layout = typesetter.layout(word.uppercased(), style: style, width: tree.trim.width, alignment: .start, hyphenate: false)
        guard let line = layout.lines.first else { return }
        let padX = size * 0.9, padY = size * 0.45
        let width = line.width + 2 * padX, height = line.height + 2 * padY
        let inset = min(tree.trim.width, tree.trim.height) * 0.04
        for i in tree.pages.indices {
            let x = tree.pages[i].side == .right ? tree.trim.width - inset - width : inset
            let rect = Rect(x: x, y: inset, width: width, height: height)
            var label = Fill(rect: rect, color: tokens.palette.accent.withAlpha(0.94), cornerRadius: height / 2)
            label.shadow = tokens.sizing.shadow
            var text = TextBox(layout: layout, lines: 0..<1,
                               frame: Rect(x: rect.x + padX - line.x, y: rect.y + padY, width: layout.width, height: line.height),
                               color: tokens.palette.background)
            text.isBookText = false
            text.structure = .artifact
            tree.pages[i].items += [.fill(label), .text(text)]
        }
    }
}

extension BookLayouter {
    /// The book's first `count` pages, set exactly as the whole book sets them, without laying out
    /// the pages after them: what a preview shows, in a fraction of the time.
    public func layoutFirst(_ count: Int, of book: ResolvedBook) -> PageTree {
        struct Enough: Error {}
        var first: [PageNode] = []
        do throws(Enough) {
            return try layout(book) { (page) throws(Enough) in
                first.append(page)
                if first.count >= count { throw Enough() }
            }
        } catch {
            var tree = PageTree(trim: book.trim, pages: first, findings: MissingGlyphs.findings(in: first, fonts: typesetter.fonts),
                                title: book.book.title, author: book.book.author, created: book.book.created)
            tree.language = book.language
            tree.subtitle = book.book.subtitle
            tree.margins = book.margins
            return tree
        }
    }
}
