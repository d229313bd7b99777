import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: SpreadPage) -> any PageTemplate { SpreadTemplate(spread: page) }
}

/// A two-page spread: one picture across both facing pages (split at the gutter, the left half on
/// an even page), with each side's text on a paper panel near the foot of its page.
struct SpreadTemplate: PageTemplate {
    let spread: SpreadPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        ctx.startOn(.left, source: page.index,
                    why: "before the spread: it would start on a right-hand page, and its two halves must face each other across the fold (left, then right)")
        let left = ctx.addPage(.spreadLeft, source: page.index)
        let right = ctx.addPage(.spreadRight, source: page.index)
        let w = ctx.width, h = ctx.height
        // Both pages share one frame in spread coordinates; the right page sees it shifted by a page width.
        let leftBleed = ctx.bleedRect(for: ctx.pages[left].number), rightBleed = ctx.bleedRect(for: ctx.pages[right].number)
        let spreadBox = Rect(x: leftBleed.x, y: leftBleed.y, width: w + rightBleed.maxX - leftBleed.x, height: leftBleed.height)
        switch page.image {
        case .asset(let asset):
            let frame = ImageFit.cover(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight), in: spreadBox)
            ctx.append(.image(ImageBox(asset: asset, frame: frame, clip: leftBleed)), to: left)
            var shifted = frame
            shifted.x -= w
            ctx.append(.image(ImageBox(asset: asset, frame: shifted, clip: rightBleed)), to: right)
        case .placeholder:
            let m = ctx.book.margins
            Placeholder.add(in: Rect(x: m.outer, y: m.top, width: w - m.outer, height: h - m.top - m.bottom), scene: spread.scene, to: left, ctx)
            Placeholder.add(in: Rect(x: 0, y: m.top, width: w - m.outer, height: h - m.top - m.bottom), scene: nil, to: right, ctx)
        case .none:
            break
        }
        let texts = [(left, spread.leftText ?? spread.text), (right, spread.rightText)]
        for (index, text) in texts {
            guard let text, !text.isEmpty else { continue }
            panel(text, on: index, ctx)
        }
    }

    private func panel(_ text: String, on index: Int, _ ctx: LayoutContext) {
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let pad = typo.body.size * 0.8
        let inner = content.width - 2 * pad
        var layout = ctx.setText(text, role: typo.body, width: inner)
        let maxHeight = ctx.height * ctx.tokens.templates.illustration.bandMaxFraction
        for scale in [0.9, 0.8, 0.7] where layout.height + 2 * pad > maxHeight {
            layout = ctx.setText(text, role: typo.body, width: inner, scale: scale)
        }
        let height = min(layout.height + 2 * pad, maxHeight)
        let rect = Rect(x: content.x, y: content.maxY - height, width: content.width, height: height)
        ctx.append(.fill(Fill(rect: rect, color: ctx.palette.background.withAlpha(0.9), cornerRadius: ctx.tokens.sizing.cornerRadius,
                              shadow: ctx.tokens.sizing.shadow)), to: index)
        var box = ctx.textBox(layout, x: rect.x + pad, y: rect.y + pad, width: inner)
        var last = layout.lines.count
        while last > 1, layout.lines[last - 1].top + layout.lines[last - 1].height > height - 2 * pad + 0.01 { last -= 1 }
        if last < layout.lines.count {
            ctx.findings.append(Finding(.warning, .other, sourcePage: ctx.pages[index].sourcePage, physicalPages: [ctx.pages[index].number],
                                        "spread text too long for its panel: \(layout.lines.count - last) line(s) cut; shorten it"))
        }
        box.lines = 0..<last
        box.frame.height = height - 2 * pad
        ctx.append(.text(box), to: index)
    }
}
