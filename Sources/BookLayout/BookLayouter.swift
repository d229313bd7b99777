import Foundation
import BookModel
import BookConfig
import BookResolve

/// The layout stage: a resolved book in, its page tree out. Page 1 is the cover; every entry of
/// `pages` follows through its template; chapters open on the right, spreads on the left.
public struct BookLayouter {
    public let typesetter: Typesetter

    public init(typesetter: Typesetter) { self.typesetter = typesetter }

    public func layout(_ book: ResolvedBook) -> PageTree {
        let ctx = LayoutContext(book: book, typesetter: typesetter)
        CoverTemplate.layout(ctx)
        for page in book.pages {
            switch page.page.type {
            case .illustration: IllustrationTemplate.layout(page, ctx)
            case .text: TextPageTemplate.layout(page, ctx)
            case .photo: PhotoTemplate.layout(page, ctx)
            case .chapter: ChapterTemplate.layout(page, ctx)
            case .spread: SpreadTemplate.layout(page, ctx)
            case .qr: QRTemplate.layout(page, ctx)
            }
        }
        var findings = ctx.findings
        findings += MissingGlyphs.findings(in: ctx.pages)
        if book.tokens.typography.body.hyphenate, typesetter.hyphenator == nil {
            findings.append(Finding(.warning, .noHyphenation,
                                    "no hyphenation dictionary for language \"\(book.language)\" in /usr/share/hyphen; justified text is set without hyphens"))
        }
        return PageTree(trim: book.trim, pages: ctx.pages, findings: findings, title: book.book.title,
                        author: book.book.author, created: book.book.created)
    }
}
