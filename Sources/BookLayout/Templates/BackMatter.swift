import Foundation
import BookConfig
import BookModel
import BookResolve

/// The pages after the story: "The End" and a page about the author.
enum BackMatter {
    static func layout(_ ctx: LayoutContext) {
        let words = MatterWords.forLanguage(ctx.book.language)
        if FrontMatter.wants(\.theEnd, \.theEnd, ctx) ?? false, !storySaysItEnds(words.theEnd, ctx) {
            let index = ctx.addPage(.theEnd, source: nil)
            let content = ctx.contentRect(for: ctx.pages[index].number)
            let text = ctx.setTitle(words.theEnd, role: ctx.tokens.typography.chapterTitle, width: content.width, scale: 1.3,
                                    alignment: .center)
            ctx.append(.text(ctx.textBox(text, x: content.x, y: content.y + (content.height - text.height) * 0.4,
                                         width: content.width, structure: .heading)), to: index)
        }
        if let about = ctx.book.book.matter?.aboutTheAuthor?.trimmingCharacters(in: .whitespacesAndNewlines), !about.isEmpty {
            let number = ctx.nextNumber
            let content = ctx.contentRect(for: number)
            let head = ctx.setTitle(words.aboutTheAuthor, role: ctx.tokens.typography.chapterTitle, width: content.width,
                                    alignment: .center)
            var role = ctx.tokens.typography.body
            if role.align == "center" { role.align = "start" }
            let body = ctx.setText(ctx.request(about, role: role, width: content.width))
            let index = ctx.addPage(.aboutAuthor, source: nil)
            let top = content.y + content.height * 0.12
            ctx.append(.text(ctx.textBox(head, x: content.x, y: top, width: content.width, structure: .heading)), to: index)
            let bodyTop = top + head.height * 2
            let fits = body.lines.last.map { $0.bottom } ?? 0
            if bodyTop + fits <= content.maxY {
                ctx.append(.text(ctx.textBox(body, x: content.x, y: bodyTop, width: content.width)), to: index)
                ctx.addFolio(to: index)
            } else {
                // A long note runs on over pages of its own.
                TextFlow.flow(body, from: 0, role: .aboutAuthor, source: nil, ctx,
                              startingOn: (index: index, top: bodyTop))
            }
        }
    }

    /// Whether the story's last words already say it is over ("… The End."): the page would repeat them.
    static func storySaysItEnds(_ theEnd: String, _ ctx: LayoutContext) -> Bool {
        let texts: [String] = ctx.book.pages.compactMap { page in
            switch page.page.content {
            case .illustration(let p): p.text
            case .text(let p): p.text
            case .chapter(let p): p.text
            case .spread(let p): p.rightText ?? p.leftText
            default: nil
            }
        }
        guard let last = texts.last(where: { !$0.isEmpty }) else { return false }
        let letters = last.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == " " }
        return String(String.UnicodeScalarView(letters)).trimmingCharacters(in: .whitespaces).hasSuffix(theEnd.lowercased())
    }
}
