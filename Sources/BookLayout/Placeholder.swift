import BookConfig
import BookResolve

/// The themed stand-in for a picture that is missing or not yet generated: tokens' colours,
/// a simple landscape motif and the page's scene text, so a proof still reads as a book.
enum Placeholder {
    /// Adds the placeholder to page `index`, at `position` in its items (appended when nil), so a
    /// template can put it under items it has already placed.
    static func add(in rect: Rect, scene: String?, to index: Int, at position: Int? = nil, _ ctx: LayoutContext) {
        let p = ctx.palette
        let radius = ctx.tokens.sizing.cornerRadius
        var items: [PageItem] = [.placeholderArt(PlaceholderArt(rect: rect, wash: p.wash, ink: p.muted, accent: p.accent, cornerRadius: radius))]
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
        box.isBookText = false
        box.structure = .artifact
        items.append(.text(box))
        ctx.pages[index].items.insert(contentsOf: items, at: position ?? ctx.pages[index].items.count)
        ctx.notePlaceholder(onPage: ctx.pages[index].number, source: ctx.pages[index].sourcePage)
    }
}
