import Foundation
import BookConfig
import BookModel
import BookResolve

/// The pages between the cover (or a printed interior's title page) and the story: the copyright
/// page on the back of the title page, the dedication and the contents, each on a right-hand page
/// in print. Which of them a book has: its `matter`, else its theme's `templates.matter`.
enum FrontMatter {
    /// The half-title, before the title page of a printed interior (page 1 and its blank back).
    static func halfTitle(_ ctx: LayoutContext) {
        guard ctx.book.profile?.interior == true, wants(\.halfTitle, \.halfTitle, ctx) ?? false else { return }
        let index = ctx.addPage(.halfTitle, source: nil)
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let role = ctx.tokens.typography.chapterTitle
        let title = ctx.setTitle(ctx.book.book.title, role: role, width: content.width, scale: 1.2, alignment: .center)
        ctx.append(.text(ctx.textBox(title, x: content.x, y: content.y + content.height * 0.3, width: content.width,
                                     structure: .title)), to: index)
        ctx.addBlank(source: nil, why: "on the back of the half-title, so the title page is a right-hand page")
    }

    /// The pages after page 1 and before the first entry of the book.
    static func layout(_ ctx: LayoutContext) {
        if wantsCopyright(ctx) { copyright(ctx) }
        if let dedication = ctx.book.book.matter?.dedication?.trimmingCharacters(in: .whitespacesAndNewlines), !dedication.isEmpty {
            ctx.startInPrint(.right, source: nil, why: "so the dedication is a right-hand page")
            let index = ctx.addPage(.dedication, source: nil)
            let content = ctx.contentRect(for: ctx.pages[index].number)
            var role = ctx.tokens.typography.body
            role.italic = true
            let width = min(content.width, content.width * 0.7)
            let text = ctx.setText(dedication, role: role, width: width, alignment: .center)
            // At the optical centre: a little above the middle.
            let y = content.y + max(0, (content.height - text.height) * 0.4)
            ctx.append(.text(ctx.textBox(text, x: content.x + (content.width - width) / 2, y: y, width: width)), to: index)
        }
        if wantsContents(ctx) { Contents.reserve(ctx) }
    }

    static func wants(_ book: KeyPath<BookMatter, Bool?>, _ theme: KeyPath<MatterSettings, Bool?>, _ ctx: LayoutContext) -> Bool? {
        ctx.book.book.matter?[keyPath: book] ?? ctx.tokens.templates.matter?[keyPath: theme]
    }

    /// In print unless switched off; on screen when switched on, or when the book gives details
    /// to print and nothing switches it off.
    static func wantsCopyright(_ ctx: LayoutContext) -> Bool {
        if let asked = wants(\.copyrightPage, \.copyrightPage, ctx) { return asked }
        return ctx.book.profile?.interior == true || (ctx.book.book.matter?.hasPublishingDetails ?? false)
    }

    static func wantsContents(_ ctx: LayoutContext) -> Bool {
        wantsContents(ctx.book)
    }

    static func wantsContents(_ book: ResolvedBook) -> Bool {
        let asked = book.book.matter?.contents ?? book.tokens.templates.matter?.contents ?? false
        return asked && Contents.entries(book).count >= (book.tokens.templates.matter?.contentsFrom ?? 3)
    }

    /// On the back of the title page: the title, the rights, the edition and the book's own
    /// numbers, set small at the foot of the page as books do.
    static func copyright(_ ctx: LayoutContext) {
        let book = ctx.book.book
        let matter = book.matter ?? BookMatter()
        let words = MatterWords.forLanguage(ctx.book.language)
        ctx.startInPrint(.left, source: nil, why: "so the copyright page is on the back of the title page")
        let index = ctx.addPage(.copyright, source: nil)
        let content = ctx.contentRect(for: ctx.pages[index].number)
        var lines: [String] = [book.title + (book.subtitle.map { ": " + $0 } ?? "")]
        let year = book.created.flatMap { $0.count >= 4 ? String($0.prefix(4)) : nil }
        if let rights = matter.rights?.trimmingCharacters(in: .whitespacesAndNewlines), !rights.isEmpty {
            lines.append(rights)
        } else if let author = book.author, !author.isEmpty {
            lines.append("© " + [year, author].compactMap { $0 }.joined(separator: " ") + ". " + words.allRightsReserved)
        }
        if let edition = matter.edition, !edition.isEmpty { lines.append(edition) }
        if let publisher = matter.publisher, !publisher.isEmpty { lines.append(words.publishedBy + " " + publisher) }
        if let isbn = matter.isbn, !isbn.isEmpty { lines.append("ISBN " + isbn) }
        var role = ctx.tokens.typography.caption
        role.italic = false
        role.align = "start"
        let text = ctx.setText(lines.joined(separator: "\n\n"), role: role, width: content.width, alignment: .start)
        ctx.append(.text(ctx.textBox(text, x: content.x, y: content.maxY - text.height, width: content.width)), to: index)
    }
}
