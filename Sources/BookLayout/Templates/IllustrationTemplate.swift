import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: IllustrationPage) -> any PageTemplate { IllustrationTemplate(illustration: page) }
}

/// An illustration page: the picture full-bleed beside a wash band holding the caption and text.
/// The band goes where the theme allows (foot, head or a side) and the picture keeps the most of
/// its subject, the crop chosen for the area the band leaves. Long text is set smaller (down to
/// 70 %) before it is allowed to flow onto a following page.
struct IllustrationTemplate: PageTemplate {
    let illustration: IllustrationPage

    /// One way of laying the page out: where the band is, its text, and the area left to the picture.
    private struct Plan {
        var position: TextPosition?
        var band: Rect?
        /// The band's edge that meets the picture.
        var edge: (from: (x: Double, y: Double), to: (x: Double, y: Double))?
        var textX = 0.0, textWidth = 0.0, textTop = 0.0, textBottom = 0.0
        var caption: TextLayout?, body: TextLayout?, height = 0.0
        var art: Rect
        /// Whether the body fits the band (else it flows on).
        var fits = true
    }

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let index = ctx.addPage(.illustration, source: page.index)
        let number = ctx.pages[index].number
        let content = ctx.contentRect(for: number)
        let bleed = ctx.bleedRect(for: number)
        let text = illustration.text.flatMap { $0.isEmpty ? nil : $0 }
        let caption = illustration.caption.flatMap { $0.isEmpty ? nil : $0 }
        let fit = illustration.fit ?? .cover
        let pad = ctx.tokens.typography.body.size

        // Every position the theme allows, scored by the subject the crop keeps; near ties go to
        // the theme's order.
        var plan = Plan(art: bleed)
        if text != nil || caption != nil {
            let positions = (ctx.tokens.templates.illustration.placement ?? TextPlacementSettings()).candidates(allowed: TextPosition.bands)
            var best: (plan: Plan, score: Double)?
            for position in positions {
                let candidate = self.plan(position, text: text, caption: caption, content: content, bleed: bleed, pad: pad, ctx)
                var score: Double = candidate.fits ? 0 : -1
                if let asset = page.image.asset, let subject = page.subject {
                    let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                                   in: candidate.art, subject: subject, fit: fit)
                    score += ArtScore.share(of: subject, in: placed.shown)
                }
                if best == nil || score > best!.score + ArtScore.preference { best = (candidate, score) }
            }
            plan = best!.plan
            draw(plan, content: content, bleed: bleed, pad: pad, index: index, page: page, ctx)
        }

        switch page.image {
        case .asset(let asset):
            let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                           in: plan.art, subject: page.subject, fit: fit)
            let alt = AltText.first(illustration.caption, illustration.scene, illustration.text)
            ctx.pages[index].items.insert(.image(ImageBox(asset: asset, frame: placed.frame, clip: plan.art, altText: alt)), at: 1)
            if let subject = page.subject {
                let visible = plan.art.intersection(ctx.pageRect)
                var record = ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue, visible: visible)
                record.textPosition = plan.position?.rawValue
                record.measure(subject, frame: placed.frame, visible: visible, covers: plan.band.map { [$0] } ?? [])
                ctx.pages[index].art.append(record)
            }
        case .placeholder:
            let m = ctx.book.margins
            let gap = min(m.top, 24)
            var rect = plan.art.intersection(Rect(x: content.x, y: m.top, width: content.width, height: ctx.height - m.top - m.bottom))
            switch plan.position {
            case .bottom?: rect = Rect(x: rect.x, y: m.top, width: rect.width, height: plan.art.maxY - m.top - gap)
            case .top?: rect.y += gap; rect.height -= gap
            case .left?: rect.x += gap; rect.width -= gap
            case .right?: rect.width -= gap
            default: break
            }
            Placeholder.add(in: rect, scene: illustration.scene, to: index, at: 1, ctx)
        case .none:
            break
        }
    }

    /// The band at `position` with its text set to fit, and the area it leaves the picture.
    private func plan(_ position: TextPosition, text: String?, caption: String?, content: Rect, bleed: Rect, pad: Double,
                      _ ctx: LayoutContext) -> Plan {
        let typo = ctx.tokens.typography
        let settings = ctx.tokens.templates.illustration
        let m = ctx.book.margins
        let w = ctx.width, h = ctx.height
        let across = position == .top || position == .bottom
        let sideWidth = w * settings.bandMaxFraction
        var plan = Plan(position: position, art: bleed)
        switch position {
        case .left: plan.textX = content.x; plan.textWidth = sideWidth - content.x - pad
        case .right: plan.textX = w - sideWidth + pad; plan.textWidth = content.maxX - plan.textX
        default: plan.textX = content.x; plan.textWidth = content.width
        }
        plan.textWidth = max(plan.textWidth, typo.body.size * 4)
        let room = across ? h * settings.bandMaxFraction : h - m.top - m.bottom
        let outerMargin = position == .top ? m.top : m.bottom
        for scale in [1.0, 0.9, 0.8, 0.7] {
            let c = caption.map { ctx.setText($0, role: typo.caption, width: plan.textWidth, scale: scale) }
            let b = text.map { ctx.setText($0, role: typo.body, width: plan.textWidth, scale: scale) }
            plan.caption = c; plan.body = b
            plan.height = (c?.height ?? 0) + (c != nil && b != nil ? pad * 0.5 : 0) + (b?.height ?? 0)
            if (across ? pad + plan.height + outerMargin : plan.height) <= room { break }
        }
        switch position {
        case .top:
            let bandHeight = min(max(h * settings.bandMinFraction, m.top + plan.height + pad), room)
            plan.band = Rect(x: bleed.x, y: bleed.y, width: bleed.width, height: bandHeight - bleed.y)
            plan.edge = ((bleed.x, bandHeight), (bleed.maxX, bandHeight))
            plan.textTop = m.top; plan.textBottom = bandHeight - pad
            plan.art = Rect(x: bleed.x, y: bandHeight, width: bleed.width, height: bleed.maxY - bandHeight)
        case .left, .right:
            let x = position == .left ? sideWidth : w - sideWidth
            plan.band = position == .left ? Rect(x: bleed.x, y: bleed.y, width: sideWidth - bleed.x, height: bleed.height)
                                          : Rect(x: x, y: bleed.y, width: bleed.maxX - x, height: bleed.height)
            plan.edge = ((x, bleed.y), (x, bleed.maxY))
            plan.textTop = m.top; plan.textBottom = h - m.bottom
            plan.art = position == .left ? Rect(x: sideWidth, y: bleed.y, width: bleed.maxX - sideWidth, height: bleed.height)
                                         : Rect(x: bleed.x, y: bleed.y, width: x - bleed.x, height: bleed.height)
        default:
            let bandHeight = min(max(h * settings.bandMinFraction, pad + plan.height + m.bottom), room)
            plan.band = Rect(x: bleed.x, y: h - bandHeight, width: bleed.width, height: bleed.maxY - h + bandHeight)
            plan.edge = ((bleed.x, h - bandHeight), (bleed.maxX, h - bandHeight))
            plan.textTop = h - bandHeight + pad; plan.textBottom = h - m.bottom
            plan.art = Rect(x: bleed.x, y: bleed.y, width: bleed.width, height: h - bandHeight - bleed.y)
        }
        plan.fits = plan.height <= plan.textBottom - plan.textTop + 0.01
        return plan
    }

    private func draw(_ plan: Plan, content: Rect, bleed: Rect, pad: Double, index: Int, page: ResolvedPage, _ ctx: LayoutContext) {
        guard let band = plan.band, let edge = plan.edge else { return }
        ctx.append(.fill(Fill(rect: band, color: ctx.palette.wash)), to: index)
        ctx.append(.rule(Rule(from: edge.from, to: edge.to, width: 2, color: ctx.palette.accent)), to: index)
        // Centre the block in the band when it fits; otherwise start at the top and flow the rest.
        var y = plan.textTop + max(0, (plan.textBottom - plan.textTop - plan.height) / 2)
        var overflow: (TextLayout, Int)?
        if let c = plan.caption {
            ctx.append(.text(ctx.textBox(c, x: plan.textX, y: y, width: plan.textWidth, color: ctx.palette.muted, structure: .caption)), to: index)
            y += c.height + (plan.body != nil ? pad * 0.5 : 0)
        }
        if let b = plan.body {
            let ranges = Paginator.paginate(lines: b.lines, pageHeights: { i in i == 0 ? max(0, plan.textBottom - y) : content.height })
            let first = ranges.first ?? 0..<0
            ctx.append(.text(TextBox(layout: b, lines: first, frame: Rect(x: plan.textX, y: y, width: plan.textWidth, height: plan.textBottom - y),
                                     color: ctx.palette.ink)), to: index)
            if first.upperBound < b.lines.count { overflow = (b, first.upperBound) }
        }
        switch plan.position {
        case .bottom?: ctx.addFolio(to: index)
        case .left?, .right?: ctx.addFolio(to: index, across: band.intersection(Rect(x: 0, y: 0, width: ctx.width, height: ctx.height)))
        default: break  // a folio at the foot would sit on the picture
        }
        if let (layout, from) = overflow {
            let number = ctx.pages[index].number
            ctx.findings.append(Finding(.warning, .other, sourcePage: page.index, physicalPages: [number],
                                        "text too long for the illustration band; it continues on the next page"))
            TextFlow.flow(layout, from: from, role: .text, source: page.index, ctx)
        }
    }
}
