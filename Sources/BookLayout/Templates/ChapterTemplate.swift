import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: ChapterPage) -> any PageTemplate { ChapterTemplate(chapter: page) }
}

/// A chapter opener, as the theme's `templates.chapter` says: on a right-hand page or the next
/// page; a title page of its own, or the title sunk down the page with the chapter's first text
/// under it (its own text, or else the text page that follows it).
struct ChapterTemplate: PageTemplate {
    let chapter: ChapterPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let settings = ctx.tokens.templates.chapter ?? .titlePage
        let name = "chapter \"\(chapter.title ?? "")\""
        // Sunk onto a picture page: the title stands above that page's words, and the chapter
        // takes no page of its own (a picture book has none to spare).
        if settings.sinks, (chapter.text ?? "").isEmpty, (chapter.subtitle ?? "").isEmpty,
           ctx.book.pages.indices.contains(page.index + 1), Self.takesHeading(ctx.book.pages[page.index + 1]),
           let title = chapter.title, !title.isEmpty {
            ctx.carriedHeading = title
            ctx.chapters.append((title, ctx.nextNumber))
            return
        }
        if settings.startsRecto {
            ctx.startOn(.right, source: page.index,
                        why: "so the \(name) opens on a right-hand page, as the theme's chapterStart \"recto\" asks")
        } else if ctx.book.profile != nil {
            // A printed book opens its chapters on the right whatever a screen theme allows.
            ctx.startOn(.right, source: page.index,
                        why: "so the \(name) opens on a right-hand page, as printed books do")
        }
        let index = ctx.addPage(.chapter, source: page.index)
        if let title = chapter.title { ctx.chapters.append((title, ctx.pages[index].number)) }
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let sinks = settings.sinks
        let title = ctx.setTitle(chapter.title ?? "", role: typo.chapterTitle, width: content.width, scale: 1.5, alignment: .center)
        var y = content.y + content.height * (sinks ? settings.sinkFraction : 0.28)
        let ruleW = content.width * 0.2
        let mid = content.x + content.width / 2
        ctx.append(.rule(Rule(from: (mid - ruleW / 2, y - typo.chapterTitle.size), to: (mid + ruleW / 2, y - typo.chapterTitle.size),
                              width: 1.2, color: ctx.palette.accent)), to: index)
        ctx.append(.text(ctx.textBox(title, x: content.x, y: y, width: content.width, structure: .heading)), to: index)
        y += title.height
        if let sub = chapter.subtitle, !sub.isEmpty {
            let s = ctx.setText(sub, role: typo.subtitle, width: content.width, scale: 0.8, alignment: .center)
            y += typo.subtitle.size * 0.6
            ctx.append(.text(ctx.textBox(s, x: content.x, y: y, width: content.width, color: ctx.palette.muted)), to: index)
            y += s.height
        }
        // Two body lines of air between the heading and the text it sinks onto.
        let room = (index: index, top: y + 2 * typo.body.size * typo.body.lineHeight)
        if let request = bodyRequest(ctx) {
            TextFlow.flow(ctx.setText(request), from: 0, role: .text, source: page.index, ctx,
                          startingOn: sinks ? room : nil)
        } else if sinks {
            ctx.openingRoom = room
        }
    }

    /// A picture page or a spread sets a carried chapter title above its words.
    static func takesHeading(_ page: ResolvedPage) -> Bool {
        switch page.page.content {
        case .illustration, .spread: return true
        default: return false
        }
    }

    /// The chapter's own text, its first paragraph flush under the title.
    func bodyRequest(_ ctx: LayoutContext) -> TextRequest? {
        guard let text = chapter.text, !text.isEmpty else { return nil }
        var request = ctx.request(text, role: ctx.tokens.typography.body, width: ctx.contentRect(for: ctx.nextNumber).width)
        request.style.indentsFirstParagraph = false
        return request
    }

    func textAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextRequest? { bodyRequest(ctx) }
}
