import Foundation
import BookConfig
import BookModel
import BookResolve

/// The contents page: each chapter's title and the page it opens on. Its pages are kept before the
/// chapters are laid out (their number depends only on the titles) and filled once every chapter
/// has its page, so the numbers are the layout's own.
enum Contents {
    /// The chapter titles, in order, as the layout will record them.
    static func entries(_ book: ResolvedBook) -> [String] {
        book.pages.compactMap { page in
            guard case .chapter(let chapter) = page.page.content, let title = chapter.title, !title.isEmpty else { return nil }
            return title
        }
    }

    /// The entries set for a column `width` wide: a title beside room for its page number.
    struct Entry { var title: TextLayout; var height: Double }

    static func set(_ titles: [String], width: Double, _ ctx: LayoutContext) -> [Entry] {
        let role = ctx.tokens.typography.body
        let numberRoom = role.size * 3
        return titles.map { title in
            let layout = ctx.setText(title, role: role, width: width - numberRoom, alignment: .start)
            return Entry(title: layout, height: layout.height + role.size * role.lineHeight * 0.5)
        }
    }

    /// How the entries fall on pages: ranges of entries, the first page under the heading.
    static func pages(_ entries: [Entry], first: Double, rest: Double) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0, used = 0.0
        for (i, e) in entries.enumerated() {
            let room = out.isEmpty ? first : rest
            if used + e.height > room, i > start {
                out.append(start..<i)
                start = i
                used = 0
            }
            used += e.height
        }
        out.append(start..<entries.count)
        return out
    }

    static func heading(_ ctx: LayoutContext, width: Double) -> TextLayout {
        ctx.setTitle(MatterWords.forLanguage(ctx.book.language).contents, role: ctx.tokens.typography.chapterTitle,
                     width: width, alignment: .center)
    }

    /// Keeps the contents pages, starting on a right-hand page.
    static func reserve(_ ctx: LayoutContext) {
        ctx.startInPrint(.right, source: nil, why: "so the contents begin on a right-hand page")
        let content = ctx.contentRect(for: ctx.nextNumber)
        let head = heading(ctx, width: content.width)
        let entries = set(entries(ctx.book), width: content.width, ctx)
        let headRoom = content.height * 0.12 + head.height * 2
        for _ in pages(entries, first: content.height - headRoom, rest: content.height) {
            ctx.contentsPages.append(ctx.addPage(.contents, source: nil))
        }
    }

    /// Fills the kept pages once every chapter has its page.
    static func fill(_ ctx: LayoutContext) {
        guard let firstIndex = ctx.contentsPages.first else { return }
        let content = ctx.contentRect(for: ctx.pages[firstIndex].number)
        let head = heading(ctx, width: content.width)
        let titles = ctx.chapters.map(\.title)
        let entries = set(titles, width: content.width, ctx)
        let headRoom = content.height * 0.12 + head.height * 2
        let role = ctx.tokens.typography.body
        let ranges = pages(entries, first: content.height - headRoom, rest: content.height)
        for (n, range) in ranges.enumerated() {
            // Entries past the kept pages (titles the estimate did not foresee) go on the last one.
            let index = ctx.contentsPages[min(n, ctx.contentsPages.count - 1)]
            let frame = ctx.contentRect(for: ctx.pages[index].number)
            var y = frame.y
            if n == 0 {
                ctx.append(.text(ctx.textBox(head, x: frame.x, y: frame.y + content.height * 0.12, width: frame.width,
                                             structure: .heading)), to: index)
                y += headRoom
            }
            for i in range {
                let entry = entries[i]
                ctx.append(.text(ctx.textBox(entry.title, x: frame.x, y: y, width: entry.title.width)), to: index)
                // The number on the title's last line, flush with the column's end.
                let number = ctx.setText(String(ctx.chapters[i].page), role: role, width: role.size * 3, alignment: .end)
                let lastTop = entry.title.lines.last.map { $0.top } ?? 0
                ctx.append(.text(ctx.textBox(number, x: frame.maxX - role.size * 3, y: y + lastTop, width: role.size * 3)), to: index)
                y += entry.height
            }
        }
    }
}
