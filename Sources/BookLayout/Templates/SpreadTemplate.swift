import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: SpreadPage) -> any PageTemplate { SpreadTemplate(spread: page) }
}

/// A two-page spread: one picture across both facing pages (split at the gutter, the left half on
/// an even page), cropped to keep its subject, with each side's text on a paper card where it
/// hides the least of that subject.
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
        let trim = Rect(x: 0, y: 0, width: 2 * w, height: h)
        var drawn: (asset: ImageAsset, placed: SubjectCrop.Placement)?
        switch page.image {
        case .asset(let asset):
            let fit = spread.fit ?? .cover
            let crop = SpreadCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                        in: spreadBox, trim: trim, fold: w, subject: page.subject, fit: fit)
            let placed = crop.placement
            if page.subject != nil, !crop.clear || crop.zoom > 1 {
                ctx.findings.append(Finding(.warning, .other, sourcePage: page.index,
                                            physicalPages: [ctx.pages[left].number, ctx.pages[right].number],
                                            Self.clearance(crop, picture: asset.origin)))
            }
            let alt = AltText.first(spread.scene, spread.text,
                                    [spread.leftText, spread.rightText].compactMap { $0 }.joined(separator: "\n"))
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: leftBleed, altText: alt)), to: left)
            var shifted = placed.frame
            shifted.x -= w
            ctx.append(.image(ImageBox(asset: asset, frame: shifted, clip: rightBleed, altText: alt)), to: right)
            drawn = (asset, placed)
            if let subject = page.subject {
                for index in [left, right] {
                    ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue,
                                                             visible: trim))
                }
            }
        case .placeholder:
            let m = ctx.book.margins
            Placeholder.add(in: Rect(x: m.outer, y: m.top, width: w - m.outer, height: h - m.top - m.bottom), scene: spread.scene, to: left, ctx)
            Placeholder.add(in: Rect(x: 0, y: m.top, width: w - m.outer, height: h - m.top - m.bottom), scene: nil, to: right, ctx)
        case .none:
            break
        }
        let texts = [(left, spread.leftText ?? spread.text, 0.0), (right, spread.rightText, w)]
        var cards: [Rect] = []
        for (index, text, offset) in texts {
            guard let text, !text.isEmpty else { continue }
            var frame = drawn?.placed.frame
            frame?.x -= offset
            var card = panel(text, on: index, over: frame, subject: drawn == nil ? nil : page.subject, ctx)
            card.x += offset
            cards.append(card)
        }
        // What the reader sees of the subject is the same on both pages: the crop less both cards.
        if let drawn, let subject = page.subject {
            for index in [left, right] where !ctx.pages[index].art.isEmpty {
                ctx.pages[index].art[0].measure(subject, frame: drawn.placed.frame, visible: trim, covers: cards)
            }
        }
    }

    /// The warning for a spread whose subject could not be kept clear of the trim and the fold
    /// by sliding the picture alone.
    static func clearance(_ crop: SpreadCrop.Outcome, picture: String) -> String {
        let margins = "0.25 in inside the trim and 0.5 in from the fold"
        let enlarged = String(format: "enlarged %.0f %%, losing some of its edges, ", (crop.zoom - 1) * 100)
        if crop.clear {
            return "spread picture \"\(picture)\": " + enlarged + "to keep its subject \(margins); "
                + "a picture with more room around its subject, or one drawn with it away from the middle, needs no enlarging"
        }
        return "spread picture \"\(picture)\": its subject does not stay \(margins) (where the binding and the trim take it)"
            + (crop.zoom > 1 ? "; the picture was " + enlarged + "to keep as much of it clear as it could" : "")
            + "; draw the subject away from the middle and the edges, or, if it was misjudged, set \"focus\" on the page"
    }

    /// The page's text on a card, where it hides the least of the picture drawn at `frame`
    /// (page coordinates).
    /// Returns the card (page coordinates).
    private func panel(_ text: String, on index: Int, over frame: Rect?, subject: PictureSubject?, _ ctx: LayoutContext) -> Rect {
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let pad = typo.body.size * 0.8
        let maxHeight = ctx.height * ctx.tokens.templates.illustration.bandMaxFraction
        let placement = ctx.tokens.templates.spread?.placement
        func set(_ width: Double) -> TextLayout {
            var layout = ctx.setText(text, role: typo.body, width: width - 2 * pad)
            for scale in [0.9, 0.8, 0.7] where layout.height + 2 * pad > maxHeight {
                layout = ctx.setText(text, role: typo.body, width: width - 2 * pad, scale: scale)
            }
            return layout
        }
        func width(_ position: TextPosition) -> Double {
            OverlayPlacer.spansWidth(position) ? content.width : content.width * OverlayPlacer.cornerShare
        }
        let choice = OverlayPlacer.choose((placement ?? TextPlacementSettings()).candidates(allowed: TextPosition.overlays),
                                          subject: subject, frame: frame) { position in
            let layout = set(width(position))
            return OverlayPlacer.rect(position, width: width(position), height: min(layout.height + 2 * pad, maxHeight), in: content)
        }
        let rect = choice.rect
        let layout = set(rect.width)
        let height = rect.height
        let look = OverlayPlacer.backing(placement, over: rect, frame: frame, subject: subject, palette: ctx.palette, cardAlpha: 0.9)
        ctx.append(.fill(Fill(rect: rect, color: look.backing, cornerRadius: ctx.tokens.sizing.cornerRadius,
                              shadow: ctx.tokens.sizing.shadow)), to: index)
        var box = ctx.textBox(layout, x: rect.x + pad, y: rect.y + pad, width: rect.width - 2 * pad, color: look.text)
        var last = layout.lines.count
        while last > 1, layout.lines[last - 1].top + layout.lines[last - 1].height > height - 2 * pad + 0.01 { last -= 1 }
        if last < layout.lines.count {
            ctx.findings.append(Finding(.warning, .other, sourcePage: ctx.pages[index].sourcePage, physicalPages: [ctx.pages[index].number],
                                        "spread text too long for its panel: \(layout.lines.count - last) line(s) cut; shorten it"))
        }
        box.lines = 0..<last
        box.frame.height = height - 2 * pad
        ctx.append(.text(box), to: index)
        if frame != nil, subject != nil, !ctx.pages[index].art.isEmpty {
            ctx.pages[index].art[0].textPosition = choice.position.rawValue
            ctx.pages[index].art[0].textContrast = look.contrast
        }
        return rect
    }
}
