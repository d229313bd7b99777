import BookModel
import BookConfig
import BookResolve

/// The printed cover: back, spine and front on one sheet with bleed all round. The spine is as
/// wide as the interior's pages times the paper's thickness; its text appears only when the book
/// is thick enough to carry it; the barcode area on the back is left clear.
public enum CoverSpread {
    public struct Info: Sendable, Equatable {
        public var interiorPages: Int
        public var paper: String
        public var spineInches: Double
        public var spineText: Bool
        /// The area kept clear for the printer's barcode, in sheet (trim) coordinates.
        public var barcode: Rect
        public var sheetInches: (width: Double, height: Double)
        public static func == (a: Info, b: Info) -> Bool {
            a.interiorPages == b.interiorPages && a.paper == b.paper && a.spineInches == b.spineInches
                && a.spineText == b.spineText && a.barcode == b.barcode && a.sheetInches == b.sheetInches
        }
    }

    /// Barcode box of KDP and IngramSpark: 2 × 1.2 in, bottom right of the back cover.
    static let barcodeSize = (width: 144.0, height: 86.4)
    /// Cover bleed when a profile names none for the interior.
    static let defaultBleed = 9.0

    public static func layout(_ book: ResolvedBook, interiorPages: Int, paper: String, typesetter: Typesetter) throws -> (PageTree, Info) {
        guard let profile = book.profile else { throw ResolveError("a cover needs a print profile (--profile kdp, lulu …)") }
        let spineInches = try profile.spineWidth(pages: interiorPages, paper: paper)
        let spine = spineInches * 72
        let w = book.trim.width, h = book.trim.height
        let bleed = max(defaultBleed, [profile.bleed.top, profile.bleed.bottom, profile.bleed.inner, profile.bleed.outer].map(\.points).max() ?? 0)
        let geometry = PrintGeometry(top: bleed, bottom: bleed, inner: bleed, outer: bleed, marks: profile.marks.margin.points)
        let sheet = TrimSize(width: 2 * w + spine, height: h)

        // The front is the book's own cover template, laid out for a page with bleed on every side
        // and moved to the right of the spine.
        var front = book
        front.profile?.bleed = .all(Length(points: bleed))
        front.profile?.interior = false
        front.profile?.marks.margin = Length(points: 0)
        let ctx = LayoutContext(book: front, typesetter: typesetter)
        CoverTemplate.layout(ctx)
        let frontItems = ctx.pages[0].items.map { $0.translated(dx: w + spine, dy: 0) }

        var items: [PageItem] = []
        let palette = book.tokens.palette
        items.append(.fill(Fill(rect: Rect(x: -bleed, y: -bleed, width: w + bleed, height: h + 2 * bleed), color: palette.wash)))
        let safety = max(profile.safety.points, 18)
        let barcode = Rect(x: w - safety - barcodeSize.width, y: h - safety - barcodeSize.height,
                           width: barcodeSize.width, height: barcodeSize.height)
        items += backItems(book, width: w, safety: safety, above: barcode.y, ctx)
        items += frontItems
        items.append(.fill(Fill(rect: Rect(x: w, y: -bleed, width: spine, height: h + 2 * bleed), color: palette.spine)))
        let hasSpineText = interiorPages >= (profile.spine?.textMinPages ?? Int.max)
        if hasSpineText, let text = spineText(book, spine: spine, height: h, x: w, ctx) { items.append(.text(text)) }
        // Kept clear: plain white, nothing drawn over it, where the printer puts the barcode.
        items.append(.fill(Fill(rect: barcode, color: .white)))

        var tree = PageTree(trim: sheet, pages: [PageNode(number: 1, role: .cover, sourcePage: nil, items: items)],
                            findings: ctx.findings, title: book.book.title, author: book.book.author, created: book.book.created)
        tree.geometry = geometry
        tree.language = book.language
        tree.subtitle = book.book.subtitle
        let info = Info(interiorPages: interiorPages, paper: paper, spineInches: spineInches, spineText: hasSpineText,
                        barcode: barcode, sheetInches: (sheet.width / 72, sheet.height / 72))
        return (tree, info)
    }

    /// Title, subtitle and author on the back, in its upper part, clear of the barcode.
    private static func backItems(_ book: ResolvedBook, width w: Double, safety: Double, above limit: Double, _ ctx: LayoutContext) -> [PageItem] {
        let typo = book.tokens.typography
        let textWidth = w - 2 * max(safety, book.margins.outer)
        let x = (w - textWidth) / 2
        var y = max(safety, book.margins.top) + typo.title.size
        var items: [PageItem] = []
        for (text, role, scale, color) in [(book.book.title, typo.title, 0.7, book.tokens.palette.ink),
                                           (book.book.subtitle, typo.subtitle, 1.0, book.tokens.palette.ink),
                                           (book.book.author, typo.subtitle, 0.9, book.tokens.palette.muted)] {
            guard let text, !text.isEmpty else { continue }
            let layout = ctx.setText(text, role: role, width: textWidth, scale: scale, alignment: .center)
            guard y + layout.height < limit else { break }
            items.append(.text(ctx.textBox(layout, x: x, y: y, width: textWidth, color: color)))
            y += layout.height + role.size * 0.8
        }
        return items
    }

    /// "Title · Author" along the spine, sized to its width.
    private static func spineText(_ book: ResolvedBook, spine: Double, height h: Double, x: Double, _ ctx: LayoutContext) -> TextBox? {
        let line = [book.book.title, book.book.author].compactMap { $0 }.joined(separator: "  ·  ")
        var role = book.tokens.typography.title
        role.size = min(role.size * 0.5, spine * 0.5)
        role.lineHeight = 1.0
        let length = h - 2 * max(book.margins.top, 36)
        let layout = ctx.setText(line, role: role, width: length, alignment: .center)
        guard layout.lines.count == 1 else { return nil }
        var box = ctx.textBox(layout, x: x + (spine - layout.height) / 2, y: (h - length) / 2, width: layout.height, color: book.tokens.palette.background)
        box.frame.height = length
        box.turnedClockwise = true
        return box
    }
}
