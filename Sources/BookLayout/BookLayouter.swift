import Foundation
import BookModel
import BookConfig
import BookResolve

/// The layout stage: a resolved book in, its page tree out. Page 1 is the cover (a title page in a
/// print interior); every entry of `pages` follows through its template; chapters open on the
/// right, spreads on the left. For print, the gutter grows with the page count as the printer's
/// table says, and the page count is padded to the printer's multiple.
public struct BookLayouter {
    public let typesetter: Typesetter
    /// Threads the long texts are laid out on (see `TextPrefetch`); the page tree is the same
    /// whatever the number.
    public var textThreads: Int

    public init(typesetter: Typesetter, textThreads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.typesetter = typesetter
        self.textThreads = textThreads
    }

    public func layout(_ book: ResolvedBook) -> PageTree {
        if textThreads > 1 {
            TextPrefetch.prepare(TextPrefetch.requests(book, typesetter: typesetter), on: typesetter, threads: textThreads)
        }
        var book = book
        var tree = layoutOnce(book)
        // The gutter depends on the page count, which depends on the gutter: widen and lay out again
        // until it holds. It only ever grows, so this ends within the table's few brackets.
        if let profile = book.profile {
            for _ in 0..<4 {
                guard let gutter = profile.gutterMargin(pages: tree.pages.count)?.points, gutter > book.margins.inner + 0.001 else { break }
                book.margins.inner = gutter
                tree = layoutOnce(book)
            }
        }
        return tree
    }

    private func layoutOnce(_ book: ResolvedBook) -> PageTree {
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
        if let profile = book.profile {
            PrintMarks.pad(to: profile.pages.multiple, ctx)
            PrintMarks.add(profile, ctx)
        }
        var findings = ctx.findings
        findings += MissingGlyphs.findings(in: ctx.pages)
        if book.tokens.typography.body.hyphenate, typesetter.hyphenator == nil {
            findings.append(Finding(.warning, .noHyphenation,
                                    "no hyphenation dictionary for language \"\(book.language)\" in /usr/share/hyphen; justified text is set without hyphens"))
        }
        let chapters = ctx.pages.filter { $0.role == .chapter }.compactMap { p -> (String, Int)? in
            guard let s = p.sourcePage, let title = book.book.pages[s].title else { return nil }
            return (title, p.number)
        }
        var tree = PageTree(trim: book.trim, pages: ctx.pages, findings: findings, title: book.book.title,
                            author: book.book.author, created: book.book.created)
        tree.geometry = ctx.geometry
        tree.chapters = chapters
        tree.language = book.language
        tree.subtitle = book.book.subtitle
        tree.keywords = [book.book.kind.rawValue] + [book.book.artStyle].compactMap { $0 }
        tree.margins = book.margins
        return tree
    }
}
