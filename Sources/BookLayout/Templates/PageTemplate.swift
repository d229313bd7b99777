import BookModel
import BookResolve

/// How one page type becomes physical pages.
protocol PageTemplate {
    /// Adds the page's physical pages, and what it has to report, to `ctx`.
    func layout(_ page: ResolvedPage, _ ctx: LayoutContext)
    /// The long text `layout` will set, if any, asked for exactly as `layout` asks, so that
    /// `TextPrefetch` can lay it out ahead on a helper thread.
    func textAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest?
    /// The short texts `layout` sets while it tries places for them (a picture page's words at
    /// each measure), asked for exactly as `layout` asks: laid out ahead when a book has many.
    func wordsAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> [TextRequest]
}

extension PageTemplate {
    func textAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest? { nil }
    func wordsAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> [TextRequest] { [] }
}

/// The template of each page type. Its `visit` for a type sits beside that type's template; a page
/// type with none is a compile error here ("does not conform to protocol 'PageVisitor'").
struct TemplateRegistry: PageVisitor {
    typealias Result = any PageTemplate

    static func template(for page: Page) -> any PageTemplate {
        page.content.accept(TemplateRegistry())
    }
}
