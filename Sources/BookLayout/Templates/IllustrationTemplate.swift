import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: IllustrationPage) -> any PageTemplate { IllustrationTemplate(illustration: page) }
}

/// An illustration page: the picture full-bleed above a wash band holding the caption and text.
/// Long text is set smaller (down to 70 %) before it is allowed to flow onto a following page.
struct IllustrationTemplate: PageTemplate {
    let illustration: IllustrationPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let typo = ctx.tokens.typography
        let settings = ctx.tokens.templates.illustration
        let index = ctx.addPage(.illustration, source: page.index)
        let number = ctx.pages[index].number
        let content = ctx.contentRect(for: number)
        let bleed = ctx.bleedRect(for: number)
        let text = illustration.text.flatMap { $0.isEmpty ? nil : $0 }
        let caption = illustration.caption.flatMap { $0.isEmpty ? nil : $0 }

        var bandHeight = 0.0
        var overflow: (TextLayout, Int)?
        if text != nil || caption != nil {
            let pad = typo.body.size
            let maxBand = ctx.height * settings.bandMaxFraction
            var chosen: (caption: TextLayout?, body: TextLayout?, height: Double)!
            for scale in [1.0, 0.9, 0.8, 0.7] {
                let c = caption.map { ctx.setText($0, role: typo.caption, width: content.width, scale: scale) }
                let b = text.map { ctx.setText($0, role: typo.body, width: content.width, scale: scale) }
                let h = (c?.height ?? 0) + (c != nil && b != nil ? pad * 0.5 : 0) + (b?.height ?? 0)
                chosen = (c, b, h)
                if pad + h + ctx.book.margins.bottom <= maxBand { break }
            }
            bandHeight = min(max(ctx.height * settings.bandMinFraction, pad + chosen.height + ctx.book.margins.bottom), maxBand)
            let textTop = ctx.height - bandHeight + pad
            let textBottom = ctx.height - ctx.book.margins.bottom
            ctx.append(.fill(Fill(rect: Rect(x: bleed.x, y: ctx.height - bandHeight, width: bleed.width, height: bleed.maxY - ctx.height + bandHeight),
                                  color: ctx.palette.wash)), to: index)
            ctx.append(.rule(Rule(from: (bleed.x, ctx.height - bandHeight), to: (bleed.maxX, ctx.height - bandHeight),
                                  width: 2, color: ctx.palette.accent)), to: index)
            // Centre the block in the band when it fits; otherwise start at the top and flow the rest.
            var y = textTop + max(0, (textBottom - textTop - chosen.height) / 2)
            if let c = chosen.caption {
                ctx.append(.text(ctx.textBox(c, x: content.x, y: y, width: content.width, color: ctx.palette.muted)), to: index)
                y += c.height + (chosen.body != nil ? pad * 0.5 : 0)
            }
            if let b = chosen.body {
                let ranges = Paginator.paginate(lines: b.lines, pageHeights: { i in i == 0 ? max(0, textBottom - y) : content.height })
                let first = ranges.first ?? 0..<0
                ctx.append(.text(TextBox(layout: b, lines: first, frame: Rect(x: content.x, y: y, width: content.width, height: textBottom - y),
                                         color: ctx.palette.ink)), to: index)
                if first.upperBound < b.lines.count { overflow = (b, first.upperBound) }
            }
            ctx.addFolio(to: index)
        }

        // Full bleed on every side the band does not cover.
        let art = Rect(x: bleed.x, y: bleed.y, width: bleed.width, height: (bandHeight > 0 ? ctx.height - bandHeight : bleed.maxY) - bleed.y)
        switch page.image {
        case .asset(let asset):
            let frame = ImageFit.cover(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight), in: art)
            ctx.pages[index].items.insert(.image(ImageBox(asset: asset, frame: frame, clip: art)), at: 1)
        case .placeholder:
            let m = ctx.book.margins
            let rect = Rect(x: content.x, y: m.top, width: content.width, height: art.maxY - m.top - min(m.top, 24))
            Placeholder.add(in: rect, scene: illustration.scene, to: index, at: 1, ctx)
        case .none:
            break
        }
        if let (layout, from) = overflow {
            ctx.findings.append(Finding(.warning, .other, sourcePage: page.index, physicalPages: [number],
                                        "text too long for the illustration band; it continues on the next page"))
            TextFlow.flow(layout, from: from, role: .text, source: page.index, ctx)
        }
    }
}
