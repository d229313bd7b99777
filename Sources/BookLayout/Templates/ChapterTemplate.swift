import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: ChapterPage) -> any PageTemplate { ChapterTemplate(chapter: page) }
}

/// A chapter opener: always a right-hand page, title a third of the way down, an accent ornament.
struct ChapterTemplate: PageTemplate {
    let chapter: ChapterPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        ctx.startOn(.right, source: page.index, why: "chapter \"\(chapter.title ?? "")\"")
        let index = ctx.addPage(.chapter, source: page.index)
        if let title = chapter.title { ctx.chapters.append((title, ctx.pages[index].number)) }
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let title = ctx.setTitle(chapter.title ?? "", role: typo.chapterTitle, width: content.width, scale: 1.5, alignment: .center)
        var y = content.y + content.height * 0.28
        let ruleW = content.width * 0.2
        let mid = content.x + content.width / 2
        ctx.append(.rule(Rule(from: (mid - ruleW / 2, y - typo.chapterTitle.size), to: (mid + ruleW / 2, y - typo.chapterTitle.size),
                              width: 1.2, color: ctx.palette.accent)), to: index)
        ctx.append(.text(ctx.textBox(title, x: content.x, y: y, width: content.width)), to: index)
        y += title.height
        if let sub = chapter.subtitle, !sub.isEmpty {
            let s = ctx.setText(sub, role: typo.subtitle, width: content.width, scale: 0.8, alignment: .center)
            y += typo.subtitle.size * 0.6
            ctx.append(.text(ctx.textBox(s, x: content.x, y: y, width: content.width, color: ctx.palette.muted)), to: index)
            y += s.height
        }
        if let request = bodyRequest(ctx) {
            // An opener may carry the chapter's first words; they flow on after the opener.
            TextFlow.flow(ctx.setText(request), from: 0, role: .text, source: page.index, ctx)
        }
    }

    func bodyRequest(_ ctx: LayoutContext) -> TextRequest? {
        guard let text = chapter.text, !text.isEmpty else { return nil }
        return ctx.request(text, role: ctx.tokens.typography.body, width: ctx.contentRect(for: ctx.nextNumber).width)
    }

    func textAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest? { bodyRequest(ctx) }
}
