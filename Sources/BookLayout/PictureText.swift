import BookConfig

/// The words of a picture page (a heading carried from a chapter opening, the caption, the text)
/// set as one block at the book's own sizes: a picture book keeps one body size from its first
/// page to its last, so a text that does not fit its page moves (to a facing page, or beside a
/// smaller picture) instead of shrinking.
struct PictureText {
    var heading: TextLayout?
    var caption: TextLayout?
    var body: TextLayout?
    /// The block's width and height, without padding.
    var width: Double
    var height: Double
    /// The space between the parts, and around the block where it has a backing.
    var gap: Double
    var pad: Double

    var isEmpty: Bool { heading == nil && caption == nil && body == nil }

    static func set(heading: String?, caption: String?, body: String?, width: Double, _ ctx: LayoutContext) -> PictureText {
        let typo = ctx.tokens.typography
        let parts = requests(heading: heading, caption: caption, body: body, width: width, ctx)
        let h = parts.heading.map(ctx.setText), c = parts.caption.map(ctx.setText), b = parts.body.map(ctx.setText)
        let gap = typo.body.size * 0.5
        let set = [h, c, b].compactMap { $0 }
        let height = set.reduce(0) { $0 + $1.height } + Double(max(0, set.count - 1)) * gap
        return PictureText(heading: h, caption: c, body: b, width: width, height: height, gap: gap, pad: typo.body.size * 0.8)
    }

    /// The texts `set` asks the typesetter for (see `TextPrefetch`).
    static func requests(heading: String?, caption: String?, body: String?, width: Double, _ ctx: LayoutContext)
        -> (heading: TextRequest?, caption: TextRequest?, body: TextRequest?) {
        let typo = ctx.tokens.typography
        return (heading.map { ctx.request($0, role: typo.chapterTitle, width: width, alignment: .center) },
                caption.map { ctx.request($0, role: typo.caption, width: width) },
                body.map { ctx.request($0, role: typo.body, width: width) })
    }

    /// The widest a block over a picture is set: the theme's ideal measure (a picture book's short
    /// lines), never wider than the text area, and never narrower than its shortest measure.
    static func measureWidth(_ ctx: LayoutContext, column: Double, share: Double = 1) -> Double {
        let body = ctx.tokens.typography.body
        guard let measure = ctx.tokens.typography.measure else { return column * share }
        let perCharacter = MeasureFit.averageCharacterWidth(body, ctx.typesetter)
        let ideal = perCharacter * measure.ideal, shortest = perCharacter * measure.min
        return min(column, max(min(column * share, ideal), shortest))
    }

    /// Appends the block's text boxes, the first line's top at `y`, centred in `x..<x+width`.
    func place(x: Double, y: Double, color: Color, muted: Color, on index: Int, _ ctx: LayoutContext) {
        var y = y
        let offset = x
        if let heading {
            ctx.append(.text(ctx.textBox(heading, x: offset, y: y, width: width, color: color, structure: .heading)), to: index)
            y += heading.height + gap
        }
        if let caption {
            ctx.append(.text(ctx.textBox(caption, x: offset, y: y, width: width, color: muted, structure: .caption)), to: index)
            y += caption.height + gap
        }
        if let body {
            ctx.append(.text(ctx.textBox(body, x: offset, y: y, width: width, color: color)), to: index)
        }
    }
}
