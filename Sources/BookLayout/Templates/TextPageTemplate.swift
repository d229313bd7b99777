import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: TextPage) -> any PageTemplate { TextPageTemplate(textPage: page) }
}

/// A text page: the book's long text, paginated through Pango. It starts under a sunk chapter
/// title when one waits for it; a text that fits on one page of its own stands where the theme's
/// `templates.text.vertical` says.
struct TextPageTemplate: PageTemplate {
    let textPage: TextPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let layout = ctx.setText(bodyRequest(page, ctx))
        let opening = ctx.openingRoom
        ctx.openingRoom = nil
        // A chapter's text after its title page reads on from the top, however short.
        let afterTitlePage = ctx.pages.last?.role == .chapter
        TextFlow.flow(layout, from: 0, role: .text, source: page.index, ctx, startingOn: opening,
                      vertical: afterTitlePage ? 0 : Self.verticalShare(ctx.tokens.templates.text.vertical))
    }

    /// The share of a page's free height that goes above a short text.
    static func verticalShare(_ rule: String?) -> Double {
        switch rule {
        case "center": return 0.5
        // The optical centre sits above the middle: two parts of the free height above, three below.
        case "optical": return 0.4
        default: return 0
        }
    }

    /// The body text as set: the body role with the text template's alignment, indent and
    /// paragraph spacing, across the text column (the same width on left and right pages). A text
    /// that opens a chapter (on its title page or sunk under the title) starts flush.
    func bodyRequest(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest {
        var role = ctx.tokens.typography.body
        let settings = ctx.tokens.templates.text
        if let align = settings.align { role.align = align }
        if let indent = settings.indent { role.indent = indent }
        if let spacing = settings.paragraphSpacing { role.paragraphSpacing = spacing }
        var request = ctx.request(textPage.text ?? "", role: role, width: ctx.contentRect(for: ctx.nextNumber).width)
        request.style.indentsFirstParagraph = !Self.opensChapter(page, ctx.book)
        return request
    }

    /// Whether the entry before this one is a chapter opener with no text of its own, so this
    /// text is the chapter's first.
    static func opensChapter(_ page: ResolvedPage, _ book: ResolvedBook) -> Bool {
        let i = page.index - 1
        guard book.pages.indices.contains(i), case .chapter(let chapter) = book.pages[i].page.content else { return false }
        return chapter.text?.isEmpty ?? true
    }

    func textAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest? { bodyRequest(page, ctx) }
}
