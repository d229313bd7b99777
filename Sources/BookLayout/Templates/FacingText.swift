import BookConfig
import BookResolve

/// The words of a picture too long to stand on it, on a plain page of their own facing it: set at
/// the body size like every page's words, standing at the optical centre when they fit the page,
/// flowing on otherwise.
enum FacingText {
    static func add(_ words: IllustrationTemplate.Words, source: Int, _ ctx: LayoutContext) {
        let content = ctx.contentRect(for: ctx.nextNumber)
        let width = PictureText.measureWidth(ctx, column: content.width)
        let text = PictureText.set(heading: words.heading, caption: words.caption, body: words.body, width: width, ctx)
        guard text.height > content.height, let bodyText = words.body else {
            let index = ctx.addPage(.text, source: source)
            let x = content.x + (content.width - width) / 2
            let y = content.y + max(0, content.height - text.height) * TextPageTemplate.verticalShare("optical")
            text.place(x: x, y: y, color: ctx.palette.ink, muted: ctx.palette.muted, on: index, ctx)
            ctx.addFolio(to: index)
            return
        }
        // Longer than a page: the heading and caption open it, the body flows on across the column
        // as a text page's does.
        let body = ctx.setText(bodyText, role: ctx.tokens.typography.body, width: content.width)
        let lead = PictureText.set(heading: words.heading, caption: words.caption, body: nil, width: width, ctx)
        if lead.isEmpty {
            TextFlow.flow(body, from: 0, role: .text, source: source, ctx)
            return
        }
        let index = ctx.addPage(.text, source: source)
        lead.place(x: content.x + (content.width - width) / 2, y: content.y, color: ctx.palette.ink, muted: ctx.palette.muted,
                   on: index, ctx)
        ctx.findings.append(Finding(.warning, .other, sourcePage: source, physicalPages: [ctx.pages[index].number],
                                    "the picture's text runs longer than a page; it continues on the pages after its picture"))
        TextFlow.flow(body, from: 0, role: .text, source: source, ctx,
                      startingOn: (index, content.y + lead.height + lead.gap))
    }
}
