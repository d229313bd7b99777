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
        // The spread's first page is its left one, or its right one in a book bound on the right.
        let first = ctx.addPage(ctx.book.bindsOnRight ? .spreadRight : .spreadLeft, source: page.index)
        let second = ctx.addPage(ctx.book.bindsOnRight ? .spreadLeft : .spreadRight, source: page.index)
        let (left, right) = ctx.book.bindsOnRight ? (second, first) : (first, second)
        let w = ctx.width, h = ctx.height
        // Both pages share one frame in spread coordinates; the right page sees it shifted by a page width.
        let leftBleed = ctx.bleedRect(for: ctx.pages[left].number), rightBleed = ctx.bleedRect(for: ctx.pages[right].number)
        let spreadBox = Rect(x: leftBleed.x, y: leftBleed.y, width: w + rightBleed.maxX - leftBleed.x, height: leftBleed.height)
        let trim = Rect(x: 0, y: 0, width: 2 * w, height: h)
        var drawn: (asset: ImageAsset, placed: SubjectCrop.Placement)?
        switch page.image {
        case .asset(let asset):
            let fit = spread.fit ?? .cover
            // One picture on many spreads (or a book laid out again) is cropped once.
            let key = SpreadCropKey(picture: asset.id, box: page.subject.map { [$0.box.x, $0.box.y, $0.box.width, $0.box.height,
                                                                               $0.centre.x, $0.centre.y] } ?? [],
                                    geometry: [spreadBox.x, spreadBox.y, spreadBox.width, spreadBox.height, trim.x, trim.width, w],
                                    fit: fit.rawValue)
            let crop = ctx.spreadCrops[key] ?? SpreadCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                                                in: spreadBox, trim: trim, fold: w, subject: page.subject, fit: fit)
            ctx.spreadCrops[key] = crop
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
        let heading = ctx.carriedHeading
        ctx.carriedHeading = nil
        // A single text and a carried heading go where the spread is read first.
        let texts = ctx.book.bindsOnRight
            ? [(left, spread.leftText, 0.0, nil), (right, spread.rightText ?? spread.text, w, heading)]
            : [(left, spread.leftText ?? spread.text, 0.0, heading), (right, spread.rightText, w, nil)]
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
        // What hides the picture on either page, in spread coordinates: the words' blocks and cards.
        var covers: [Rect] = []
        for (k, side) in sides.enumerated() {
            var frame = drawn?.placed.frame
            frame?.x -= side.offset
            var cover: Rect
            if let frame, let over, spread.fit ?? .cover == .cover,
               let choice = placeOver(side.words, on: side.index, frame: frame, subject: page.subject, settings: over, only: shared?[k], ctx) {
                cover = choice.block
            } else {
                cover = panel(side.words, on: side.index, over: frame, subject: drawn == nil ? nil : page.subject, ctx)
            }
            cover.x += side.offset
            covers.append(cover)
        }
        // What the reader sees of the subject is the same on both pages: the crop less both pages' words.
        if let drawn, let subject = page.subject {
            for index in [left, right] where !ctx.pages[index].art.isEmpty {
                ctx.pages[index].art[0].measure(subject, frame: drawn.placed.frame, visible: trim, covers: covers)
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
            ctx.pages[index].art[0].textContrast = choice.contrast
            ctx.pages[index].art[0].textBacking = choice.scrim == nil ? "none" : "scrim"
        }
        return choice
    }

    /// The page's text on a card, where it hides the least of the picture drawn at `frame`
    /// (page coordinates). Returns the card.
    @discardableResult
    private func panel(_ words: IllustrationTemplate.Words, on index: Int, over frame: Rect?, subject: PictureSubject?, _ ctx: LayoutContext) -> Rect {
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
        if frame != nil, subject != nil, !ctx.pages[index].art.isEmpty {
            ctx.pages[index].art[0].textPosition = choice.position.rawValue
            ctx.pages[index].art[0].textContrast = look.contrast
            ctx.pages[index].art[0].textBacking = "card"
        }
        return rect
    }
}
