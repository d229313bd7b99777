import BookConfig
import BookResolve

/// Flows one laid-out text over as many pages as it needs, with the Paginator's widow and
/// orphan rules; every line lands on exactly one page, inside that page's text frame.
enum TextFlow {
    /// Lays `layout`'s lines from `firstLine` on onto new pages of `role`, each with a folio.
    static func flow(_ layout: TextLayout, from firstLine: Int, role: PageRole, source: Int, color: Color? = nil,
                          _ ctx: LayoutContext) {
        guard firstLine < layout.lines.count else { return }
        let remaining = Array(layout.lines[firstLine...])
        let startNumber = ctx.nextNumber
        let ranges = Paginator.paginate(lines: remaining, pageHeights: { i in
            ctx.contentRect(for: startNumber + i).height
        })
        for range in ranges {
            let index = ctx.addPage(role, source: source)
            let frame = ctx.contentRect(for: ctx.pages[index].number)
            let lines = (range.lowerBound + firstLine)..<(range.upperBound + firstLine)
            ctx.append(.text(TextBox(layout: layout, lines: lines, frame: frame, color: color ?? ctx.palette.ink)), to: index)
            ctx.addFolio(to: index)
        }
    }
}
