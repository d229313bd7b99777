import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: TextPage) -> any PageTemplate { TextPageTemplate(textPage: page) }
}

/// A text page: the book's long text, paginated through Pango.
struct TextPageTemplate: PageTemplate {
    let textPage: TextPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let layout = ctx.setText(bodyRequest(ctx))
        TextFlow.flow(layout, from: 0, role: .text, source: page.index, ctx)
    }

    /// The body text as set: the body role with the text template's alignment and indent, across
    /// the text column (the same width on left and right pages).
    func bodyRequest(_ ctx: LayoutContext) -> TextRequest {
        var role = ctx.tokens.typography.body
        let settings = ctx.tokens.templates.text
        if let align = settings.align { role.align = align }
        if let indent = settings.indent { role.indent = indent }
        return ctx.request(textPage.text ?? "", role: role, width: ctx.contentRect(for: ctx.nextNumber).width)
    }

    func textAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest? { bodyRequest(ctx) }
}
