import BookConfig
import BookModel
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

/// A text page: the book's long text, paginated through Pango.
enum TextPageTemplate {
    static func layout(_ textPage: TextPage, _ page: ResolvedPage, _ ctx: LayoutContext) {
        let layout = ctx.setText(bodyRequest(textPage, ctx))
        TextFlow.flow(layout, from: 0, role: .text, source: page.index, ctx)
    }

    /// The body text as set: the body role with the text template's alignment and indent, across
    /// the text column (the same width on left and right pages).
    static func bodyRequest(_ textPage: TextPage, _ ctx: LayoutContext) -> TextRequest {
        var role = ctx.tokens.typography.body
        let settings = ctx.tokens.templates.text
        if let align = settings.align { role.align = align }
        if let indent = settings.indent { role.indent = indent }
        return ctx.request(textPage.text ?? "", role: role, width: ctx.contentRect(for: ctx.nextNumber).width)
    }
}
