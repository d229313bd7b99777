import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: SpreadPage) -> any PageTemplate { SpreadTemplate(spread: page) }
}

/// A two-page spread: one picture across both facing pages (split at the gutter, the left half on
/// an even page), cropped to keep its subject, with each side's words straight on the art where it
/// is quiet (as on an illustration page), else on a paper card where it hides the least of the
/// subject. A chapter's title carried to the spread stands above the left page's words.
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
        var drawn: (asset: ImageAsset, placed: SubjectCrop.Placement)?
        switch page.image {
        case .asset(let asset):
            let fit = spread.fit ?? .cover
            let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                           in: spreadBox, subject: page.subject, fit: fit)
            let alt = AltText.first(spread.scene, spread.text,
                                    [spread.leftText, spread.rightText].compactMap { $0 }.joined(separator: "\n"))
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: leftBleed, altText: alt)), to: left)
            var shifted = placed.frame
            shifted.x -= w
            ctx.append(.image(ImageBox(asset: asset, frame: shifted, clip: rightBleed, altText: alt)), to: right)
            drawn = (asset, placed)
            if let subject = page.subject {
                for index in [left, right] {
                    ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue))
                }
            }
        case .placeholder:
            let m = ctx.book.margins
            Placeholder.add(in: Rect(x: m.outer, y: m.top, width: w - m.outer, height: h - m.top - m.bottom), scene: spread.scene, to: left, ctx)
            Placeholder.add(in: Rect(x: 0, y: m.top, width: w - m.outer, height: h - m.top - m.bottom), scene: nil, to: right, ctx)
        case .none:
            break
        }
        let heading = ctx.carriedHeading
        ctx.carriedHeading = nil
        let texts = [(left, spread.leftText ?? spread.text, 0.0, heading), (right, spread.rightText, w, nil)]
        let sides = texts.map { index, text, offset, heading in
            (index: index, offset: offset,
             words: IllustrationTemplate.Words(heading: heading, caption: nil, body: text.flatMap { $0.isEmpty ? nil : $0 }))
        }.filter { !$0.words.isEmpty }
        let over = ctx.tokens.templates.illustration.over
        // Words on both pages stand alike: both at the head or the foot, or both in the outer
        // corners, the first such place the theme lists that is quiet on both pages.
        var shared: [TextPosition]?
        if sides.count == 2, let over, let frame = drawn?.placed.frame, spread.fit ?? .cover == .cover {
            var best = -Double.infinity
            for position in over.candidates(allowed: TextPosition.overlays) {
                let pair = [position, Self.mirrored(position)]
                var total = 0.0
                for (side, p) in zip(sides, pair) {
                    var f = frame
                    f.x -= side.offset
                    guard let choice = placeOver(side.words, on: side.index, frame: f, subject: page.subject, settings: over,
                                                 only: p, placing: false, ctx) else { total = -.infinity; break }
                    total += choice.score
                }
                if total > best { best = total; shared = pair }
            }
        }
        for (k, side) in sides.enumerated() {
            var frame = drawn?.placed.frame
            frame?.x -= side.offset
            if let frame, let over, spread.fit ?? .cover == .cover,
               placeOver(side.words, on: side.index, frame: frame, subject: page.subject, settings: over, only: shared?[k], ctx) != nil {
                continue
            }
            panel(side.words, on: side.index, over: frame, subject: drawn == nil ? nil : page.subject, ctx)
        }
    }

    /// The place on the right-hand page that matches `position` on the left-hand one: the outer
    /// corners match each other, the head and foot themselves.
    static func mirrored(_ position: TextPosition) -> TextPosition {
        switch position {
        case .topLeft: return .topRight
        case .topRight: return .topLeft
        case .bottomLeft: return .bottomRight
        case .bottomRight: return .bottomLeft
        case .left: return .right
        case .right: return .left
        default: return position
        }
    }

    /// The page's words straight on the art where it is quiet (as an illustration page's), or false.
    /// `only`: that place alone. `placing` false: only says where the words would go.
    @discardableResult
    private func placeOver(_ words: IllustrationTemplate.Words, on index: Int, frame: Rect, subject: PictureSubject?,
                           settings: TextPlacementSettings, only: TextPosition? = nil, placing: Bool = true,
                           _ ctx: LayoutContext) -> QuietPlacer.Choice? {
        let number = ctx.pages[index].number
        let content = ctx.contentRect(for: number)
        func text(_ position: TextPosition) -> PictureText {
            let width = PictureText.measureWidth(ctx, column: content.width,
                                                 share: OverlayPlacer.spansWidth(position) ? 1 : OverlayPlacer.cornerShare)
            return PictureText.set(heading: words.heading, caption: nil, body: words.body, width: width, ctx)
        }
        let allowsVeil = ctx.book.profile.map { $0.allowsTransparency && !$0.isCMYK } ?? true
        let positions = only.map { [$0] } ?? settings.candidates(allowed: TextPosition.overlays)
        guard let choice = QuietPlacer.choose(positions: positions, text: text, area: content, frame: frame, subject: subject,
                                              settings: settings, palette: ctx.palette, allowsVeil: allowsVeil,
                                              page: ctx.bleedRect(for: number)) else { return nil }
        guard placing else { return choice }
        if let scrim = choice.scrim { ctx.append(.fill(scrim), to: index) }
        text(choice.position).place(x: choice.block.x, y: choice.block.y, color: choice.textColor, muted: choice.textColor, on: index, ctx)
        if !ctx.pages[index].art.isEmpty {
            ctx.pages[index].art[0].textPosition = choice.position.rawValue
            ctx.pages[index].art[0].subjectCovered = choice.covered
            ctx.pages[index].art[0].textContrast = choice.contrast
            ctx.pages[index].art[0].textBacking = choice.scrim == nil ? "none" : "scrim"
        }
        return choice
    }

    /// The page's text on a card, where it hides the least of the picture drawn at `frame`
    /// (page coordinates).
    private func panel(_ words: IllustrationTemplate.Words, on index: Int, over frame: Rect?, subject: PictureSubject?, _ ctx: LayoutContext) {
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let pad = typo.body.size * 0.8
        // One body size through the book: a card grows to hold its words, up to the text area.
        let maxHeight = content.height
        let placement = ctx.tokens.templates.spread?.placement
        func set(_ width: Double) -> PictureText {
            PictureText.set(heading: words.heading, caption: nil, body: words.body, width: width - 2 * pad, ctx)
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
        let text = set(rect.width)
        let look = OverlayPlacer.backing(placement, over: rect, frame: frame, subject: subject, palette: ctx.palette, cardAlpha: 0.9)
        // A card printed on paper has no shadow: that is a screen's depth.
        let shadow = ctx.book.profile == nil ? ctx.tokens.sizing.shadow : nil
        ctx.append(.fill(Fill(rect: rect, color: look.backing, cornerRadius: ctx.tokens.sizing.cornerRadius, shadow: shadow)), to: index)
        text.place(x: rect.x + pad, y: rect.y + pad, color: look.text, muted: look.text, on: index, ctx)
        if text.height + 2 * pad > rect.height + 0.01 {
            ctx.findings.append(Finding(.warning, .other, sourcePage: ctx.pages[index].sourcePage, physicalPages: [ctx.pages[index].number],
                                        "spread text longer than its page; shorten it"))
        }
        if let frame, let subject, !ctx.pages[index].art.isEmpty {
            ctx.pages[index].art[0].textPosition = choice.position.rawValue
            ctx.pages[index].art[0].subjectCovered = subject.weight(in: SubjectCrop.unit(rect, in: frame))
            ctx.pages[index].art[0].textContrast = look.contrast
            ctx.pages[index].art[0].textBacking = "card"
        }
    }
}
