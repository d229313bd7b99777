import BookConfig
import BookModel
import BookResolve

/// The illustration page's fallback: a wash band across the foot or head (or down a side)
/// holding the words, the picture cropped to the rest of the page around its subject. The band is
/// as tall as its words need (at least the theme's least share, and as tall as its facing page's
/// band), never taller than the theme's largest share: words that need more do not come here.
enum Band {
    /// The height the words may take in a band across the page, at most.
    static func room(_ ctx: LayoutContext) -> Double {
        let m = ctx.book.margins
        let pad = ctx.tokens.typography.body.size
        return ctx.height * ctx.tokens.templates.illustration.bandMaxFraction - pad - max(m.top, m.bottom)
    }

    private struct Plan {
        var position: TextPosition
        var band: Rect
        var edge: (from: (x: Double, y: Double), to: (x: Double, y: Double))
        var textTop = 0.0, textBottom = 0.0
        var text: PictureText
        var textX = 0.0
        var art: Rect
        /// Across the foot or head: the band's height on the page (its bleed aside).
        var height = 0.0
    }

    static func layout(_ page: ResolvedPage, _ words: IllustrationTemplate.Words, fit: PictureFit, scene: String?, altText: String?,
                       on index: Int, _ ctx: LayoutContext) {
        let number = ctx.pages[index].number
        let content = ctx.contentRect(for: number), bleed = ctx.bleedRect(for: number)
        let positions = (ctx.tokens.templates.illustration.placement ?? TextPlacementSettings()).candidates(allowed: TextPosition.bands)
        let minimum = ctx.plan.blockHeights[page.index] ?? 0
        var best: (plan: Plan, score: Double)?
        for position in positions {
            let candidate = plan(position, words, content: content, bleed: bleed, minimum: minimum, ctx)
            var score = candidate.text.height <= candidate.textBottom - candidate.textTop + 0.01 ? 0.0 : -1
            if case .asset(let asset) = page.image, let subject = page.subject {
                let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                               in: candidate.art, subject: subject, fit: fit)
                score += ArtScore.share(of: subject, in: placed.shown)
            }
            if best == nil || score > best!.score + ArtScore.preference { best = (candidate, score) }
        }
        let plan = best!.plan
        draw(plan, index: index, ctx)
        switch page.image {
        case .asset(let asset):
            let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                           in: plan.art, subject: page.subject, fit: fit)
            ctx.pages[index].items.insert(.image(ImageBox(asset: asset, frame: placed.frame, clip: plan.art, altText: altText)), at: 1)
            if let subject = page.subject {
                var record = ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue)
                record.textPosition = plan.position.rawValue
                record.textBacking = "band"
                record.textBlockHeight = plan.height > 0 ? plan.height : nil
                ctx.pages[index].art.append(record)
            }
        case .placeholder:
            let m = ctx.book.margins
            let gap = min(m.top, 24)
            var rect = plan.art.intersection(Rect(x: content.x, y: m.top, width: content.width, height: ctx.height - m.top - m.bottom))
            switch plan.position {
            case .bottom: rect = Rect(x: rect.x, y: m.top, width: rect.width, height: plan.art.maxY - m.top - gap)
            case .top: rect.y += gap; rect.height -= gap
            case .left: rect.x += gap; rect.width -= gap
            case .right: rect.width -= gap
            default: break
            }
            Placeholder.add(in: rect, scene: scene, to: index, at: 1, ctx)
        case .none:
            break
        }
    }

    /// The band at `position` with the words set in it, and the area it leaves the picture.
    private static func plan(_ position: TextPosition, _ words: IllustrationTemplate.Words, content: Rect, bleed: Rect,
                             minimum: Double, _ ctx: LayoutContext) -> Plan {
        let settings = ctx.tokens.templates.illustration
        let m = ctx.book.margins
        let w = ctx.width, h = ctx.height
        let pad = ctx.tokens.typography.body.size
        let sideWidth = w * settings.bandMaxFraction
        let column: Double
        switch position {
        case .left: column = sideWidth - content.x - pad
        case .right: column = content.maxX - (w - sideWidth + pad)
        default: column = content.width
        }
        let width = PictureText.measureWidth(ctx, column: max(column, pad * 4))
        let text = PictureText.set(heading: words.heading, caption: words.caption, body: words.body, width: width, ctx)
        let room = h * settings.bandMaxFraction
        var plan: Plan
        switch position {
        case .top:
            let bandHeight = min(max(h * settings.bandMinFraction, m.top + text.height + pad, minimum), room)
            plan = Plan(position: position, band: Rect(x: bleed.x, y: bleed.y, width: bleed.width, height: bandHeight - bleed.y),
                        edge: ((bleed.x, bandHeight), (bleed.maxX, bandHeight)), text: text,
                        art: Rect(x: bleed.x, y: bandHeight, width: bleed.width, height: bleed.maxY - bandHeight))
            plan.textTop = m.top; plan.textBottom = bandHeight - pad
            plan.textX = content.x + (content.width - width) / 2
            plan.height = bandHeight
        case .left, .right:
            let x = position == .left ? sideWidth : w - sideWidth
            let band = position == .left ? Rect(x: bleed.x, y: bleed.y, width: sideWidth - bleed.x, height: bleed.height)
                                         : Rect(x: x, y: bleed.y, width: bleed.maxX - x, height: bleed.height)
            let art = position == .left ? Rect(x: sideWidth, y: bleed.y, width: bleed.maxX - sideWidth, height: bleed.height)
                                        : Rect(x: bleed.x, y: bleed.y, width: x - bleed.x, height: bleed.height)
            plan = Plan(position: position, band: band, edge: ((x, bleed.y), (x, bleed.maxY)), text: text, art: art)
            plan.textTop = m.top; plan.textBottom = h - m.bottom
            plan.textX = position == .left ? content.x : w - sideWidth + pad
        default:
            let bandHeight = min(max(h * settings.bandMinFraction, pad + text.height + m.bottom, minimum), room)
            plan = Plan(position: position, band: Rect(x: bleed.x, y: h - bandHeight, width: bleed.width, height: bleed.maxY - h + bandHeight),
                        edge: ((bleed.x, h - bandHeight), (bleed.maxX, h - bandHeight)), text: text,
                        art: Rect(x: bleed.x, y: bleed.y, width: bleed.width, height: h - bandHeight - bleed.y))
            plan.textTop = h - bandHeight + pad; plan.textBottom = h - m.bottom
            plan.textX = content.x + (content.width - width) / 2
            plan.height = bandHeight
        }
        return plan
    }

    private static func draw(_ plan: Plan, index: Int, _ ctx: LayoutContext) {
        ctx.append(.fill(Fill(rect: plan.band, color: ctx.palette.wash)), to: index)
        ctx.append(.rule(Rule(from: plan.edge.from, to: plan.edge.to, width: 2, color: ctx.palette.accent)), to: index)
        // The block centred in the band: every band of a book holds its words the same way.
        let y = plan.textTop + max(0, (plan.textBottom - plan.textTop - plan.text.height) / 2)
        plan.text.place(x: plan.textX, y: y, color: ctx.palette.ink, muted: ctx.palette.muted, on: index, ctx)
        switch plan.position {
        case .bottom: ctx.addFolio(to: index)
        case .left, .right: ctx.addFolio(to: index, across: plan.band.intersection(Rect(x: 0, y: 0, width: ctx.width, height: ctx.height)))
        default: break  // a folio at the foot would sit on the picture
        }
    }
}
