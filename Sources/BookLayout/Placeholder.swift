import BookConfig
import BookResolve

/// The themed stand-in for a picture that is missing or not yet generated: tokens' colours,
/// a simple landscape motif and the page's scene text, so a proof still reads as a book.
enum Placeholder {
    static func add(in rect: Rect, scene: String?, to index: Int, _ ctx: LayoutContext) {
        let p = ctx.palette
        let radius = ctx.tokens.sizing.cornerRadius
        ctx.append(.placeholderArt(PlaceholderArt(rect: rect, wash: p.wash, ink: p.muted, accent: p.accent, cornerRadius: radius)), to: index)
        let role = ctx.tokens.typography.caption
        let width = rect.width * 0.8
        let label = "Illustration to come" + (scene.map { ": " + $0 } ?? "")
        let layout = ctx.setText(label, role: role, width: width, alignment: .center)
        // The scene text sits in the lower third, under the motif, and is cut to what fits there.
        let room = rect.height * 0.3
        var box = ctx.textBox(layout, x: rect.x + (rect.width - width) / 2, y: rect.y + rect.height * 0.64, width: width, color: p.muted)
        var last = layout.lines.count
        while last > 1, layout.lines[last - 1].top + layout.lines[last - 1].height - layout.lines[0].top > room { last -= 1 }
        box.lines = 0..<last
        box.frame.height = room
        ctx.append(.text(box), to: index)
        ctx.notePlaceholder(onPage: ctx.pages[index].number, source: ctx.pages[index].sourcePage)
    }
}
