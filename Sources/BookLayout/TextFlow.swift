import BookConfig
import BookResolve

/// Flows one laid-out text over as many pages as it needs, with the Paginator's widow and
/// orphan rules and facing pages ending on the same line; every line lands on exactly one
/// page, inside that page's text frame.
enum TextFlow {
    /// Lays `layout`'s lines from `firstLine` on onto new pages of `role`, each with a folio.
    /// `startingOn`: a page already made (a sunk chapter opening) whose text area, from `top`
    /// down, takes the first lines; it gets its folio here.
    /// `vertical`: where a text that fits whole on one new page stands on it (0 top, 0.5 centred).
    static func flow(_ layout: TextLayout, from firstLine: Int, role: PageRole, source: Int?, color: Color? = nil,
                     _ ctx: LayoutContext, startingOn opening: (index: Int, top: Double)? = nil, vertical: Double = 0) {
        guard firstLine < layout.lines.count else { return }
        let remaining = Array(layout.lines[firstLine...])
        // An opening with no room for a few lines is left as a title page.
        let opening = opening.flatMap { o in
            ctx.contentRect(for: ctx.pages[o.index].number).maxY - o.top >= 3 * remaining[0].height ? o : nil
        }
        let startNumber = opening.map { ctx.pages[$0.index].number } ?? ctx.nextNumber
        // The flow's pages follow one another, so a right-hand (odd) page faces the flow's page
        // before it; a sunk opening has a shorter text area and is not held to its neighbour's line.
        let ranges = Paginator.paginate(lines: remaining, pageHeights: { i in
            let frame = ctx.contentRect(for: startNumber + i)
            return i == 0 && opening != nil ? max(0, frame.maxY - opening!.top) : frame.height
        }, facesPrevious: { i in
            i > 0 && (startNumber + i) % 2 == 1 && !(i == 1 && opening != nil)
        })
        for (i, range) in ranges.enumerated() {
            let lines = (range.lowerBound + firstLine)..<(range.upperBound + firstLine)
            let index: Int
            var frame: Rect
            if i == 0, let opening {
                index = opening.index
                frame = ctx.contentRect(for: ctx.pages[index].number)
                frame.height = max(0, frame.maxY - opening.top)
                frame.y = opening.top
            } else {
                index = ctx.addPage(role, source: source)
                frame = ctx.contentRect(for: ctx.pages[index].number)
                if ranges.count == 1, vertical > 0 {
                    let used = layout.lines[lines.upperBound - 1].bottom - layout.lines[lines.lowerBound].top
                    let drop = max(0, frame.height - used) * vertical
                    frame.y += drop
                    frame.height -= drop
                }
            }
            ctx.append(.text(TextBox(layout: layout, lines: lines, frame: frame, color: color ?? ctx.palette.ink)), to: index)
            ctx.addFolio(to: index)
        }
    }
}
