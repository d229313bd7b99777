import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: IllustrationPage) -> any PageTemplate { IllustrationTemplate(illustration: page) }
}

/// An illustration page. The picture fills the page and its words stand on it where the art is
/// quiet (the theme's `templates.illustration.over`), in ink or paper colour, with a soft veil
/// only where the art alone does not give the contrast; where no place is quiet and clear, they go
/// in a band beside the picture (the fallback), which keeps the same height as its facing page's.
/// The words are always set at the book's body size: words too long for one page go on a plain
/// page facing the picture, or, where the picture cannot start a spread, under a smaller picture.
struct IllustrationTemplate: PageTemplate {
    let illustration: IllustrationPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let heading = ctx.carriedHeading
        ctx.carriedHeading = nil
        let words = words(heading: heading)
        // Words taller than a band may still stand over a tall quiet part of the art (a wide sky).
        let fits = words.isEmpty || fitsOnePage(words, ctx) || overArt(page, words, number: ctx.nextNumber, ctx) != nil
        let arrangement = ctx.plan.arrangements[page.index] ?? (fits ? .single : .facingText)
        let opensSpread = ctx.nextNumber % 2 == 0
        switch arrangement {
        case .facingText where opensSpread && !words.isEmpty:
            let index = ctx.addPage(.illustration, source: page.index)
            picture(page, in: ctx.bleedRect(for: ctx.pages[index].number), on: index, ctx)
            FacingText.add(words, source: page.index, ctx)
        case .single where fits, .facingText where words.isEmpty:
            single(page, words, ctx)
        default:
            SpotPicture.add(page, words, fit: illustration.fit ?? .cover, scene: illustration.scene, altText: altText, ctx)
        }
    }

    struct Words {
        var heading: String?, caption: String?, body: String?
        var isEmpty: Bool { heading == nil && caption == nil && body == nil }
    }

    private var altText: String? { AltText.first(illustration.caption, illustration.scene, illustration.text) }

    private func words(heading: String?) -> Words {
        Words(heading: heading, caption: illustration.caption.flatMap { $0.isEmpty ? nil : $0 },
              body: illustration.text.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The theme's settings for words over the art, when this page's picture may take them: a
    /// picture that covers the page, with a subject to keep clear.
    private func overSettings(_ page: ResolvedPage, _ ctx: LayoutContext) -> TextPlacementSettings? {
        guard (illustration.fit ?? .cover) == .cover, case .asset = page.image, page.subject != nil else { return nil }
        return ctx.tokens.templates.illustration.over
    }

    /// The measure the words are set at over the art in `position`, in a column `column` wide.
    private static func overArtWidth(_ position: TextPosition, column: Double, _ ctx: LayoutContext) -> Double {
        PictureText.measureWidth(ctx, column: column, share: OverlayPlacer.spansWidth(position) ? 1 : OverlayPlacer.cornerShare)
    }

    /// The words at the measures `fitsOnePage` and `overArt` set them at. A heading carried from a
    /// chapter opening is left to the page pass: it is known only there.
    func wordsAhead(_ page: ResolvedPage, _ ctx: LayoutContext) -> [TextRequest] {
        let words = words(heading: nil)
        guard !words.isEmpty else { return [] }
        let column = ctx.contentRect(for: ctx.nextNumber).width
        var widths = [PictureText.measureWidth(ctx, column: column)]
        for position in overSettings(page, ctx)?.candidates(allowed: TextPosition.overlays) ?? [] {
            let width = Self.overArtWidth(position, column: column, ctx)
            if !widths.contains(width) { widths.append(width) }
        }
        return widths.flatMap { width in
            let parts = PictureText.requests(heading: nil, caption: words.caption, body: words.body, width: width, ctx)
            return [parts.caption, parts.body].compactMap { $0 }
        }
    }

    /// Whether the words fit the largest band the theme allows at the body size.
    func fitsOnePage(_ words: Words, _ ctx: LayoutContext) -> Bool {
        guard !words.isEmpty else { return true }
        let width = PictureText.measureWidth(ctx, column: ctx.contentRect(for: ctx.nextNumber).width)
        let text = PictureText.set(heading: words.heading, caption: words.caption, body: words.body, width: width, ctx)
        return text.height <= Band.room(ctx) + 0.01
    }

    /// Where the words stand over the art on page `number`, if the theme allows it and some place
    /// is quiet and clear: the place, the words as set for it, the picture's placement.
    private func overArt(_ page: ResolvedPage, _ words: Words, number: Int, _ ctx: LayoutContext)
        -> (choice: QuietPlacer.Choice, text: PictureText, placed: SubjectCrop.Placement, asset: ImageAsset)? {
        let fit = illustration.fit ?? .cover
        guard !words.isEmpty, let over = overSettings(page, ctx), case .asset(let asset) = page.image,
              let subject = page.subject else { return nil }
        let bleed = ctx.bleedRect(for: number), content = ctx.contentRect(for: number)
        let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                       in: bleed, subject: subject, fit: fit)
        var texts: [Double: PictureText] = [:]
        func text(_ position: TextPosition) -> PictureText {
            let width = Self.overArtWidth(position, column: content.width, ctx)
            if let made = texts[width] { return made }
            let made = PictureText.set(heading: words.heading, caption: words.caption, body: words.body, width: width, ctx)
            texts[width] = made
            return made
        }
        let positions = over.candidates(allowed: TextPosition.overlays)
        let allowsVeil = ctx.book.profile.map { $0.allowsTransparency && !$0.isCMYK } ?? true
        guard let choice = QuietPlacer.choose(positions: positions, text: text, area: content, frame: placed.frame, subject: subject,
                                              settings: over, palette: ctx.palette, allowsVeil: allowsVeil,
                                              page: bleed, blockHeight: ctx.plan.blockHeights[page.index] ?? 0) else { return nil }
        return (choice, text(choice.position), placed, asset)
    }

    /// One page: the picture full bleed, the words over it where it is quiet, else in a band.
    private func single(_ page: ResolvedPage, _ words: Words, _ ctx: LayoutContext) {
        let index = ctx.addPage(.illustration, source: page.index)
        let number = ctx.pages[index].number
        let bleed = ctx.bleedRect(for: number)
        guard !words.isEmpty else {
            picture(page, in: bleed, on: index, ctx)
            return
        }
        let fit = illustration.fit ?? .cover
        if let (choice, set, placed, asset) = overArt(page, words, number: number, ctx), let subject = page.subject {
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: bleed, altText: altText)), to: index)
            if let scrim = choice.scrim { ctx.append(.fill(scrim), to: index) }
            // The block's own lines stand at its foot when it is held taller for its facing page.
            let y = choice.position == .bottom || choice.position == .bottomLeft || choice.position == .bottomRight
                ? choice.block.maxY - set.height : choice.block.y
            set.place(x: choice.block.x, y: y, color: choice.textColor, muted: choice.textColor, on: index, ctx)
            var record = ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue,
                                      visible: bleed.intersection(ctx.pageRect))
            record.textPosition = choice.position.rawValue
            // The words hide what lies under their block; a veil only dims the art around them.
            record.measure(subject, frame: placed.frame, visible: bleed.intersection(ctx.pageRect), covers: [choice.block])
            record.textContrast = choice.contrast
            record.textBacking = choice.scrim == nil ? "none" : "scrim"
            record.textBlockHeight = choice.scrim == nil ? nil : choice.block.height
            ctx.pages[index].art.append(record)
            return
        }
        Band.layout(page, words, fit: fit, scene: illustration.scene, altText: altText, on: index, ctx)
    }

    /// The picture alone, filling `area`.
    private func picture(_ page: ResolvedPage, in area: Rect, on index: Int, _ ctx: LayoutContext) {
        let fit = illustration.fit ?? .cover
        switch page.image {
        case .asset(let asset):
            let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                           in: area, subject: page.subject, fit: fit)
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: area, altText: altText)), to: index)
            if let subject = page.subject {
                ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue,
                                                         visible: area.intersection(ctx.pageRect)))
            }
        case .placeholder:
            let m = ctx.book.margins
            let content = ctx.contentRect(for: ctx.pages[index].number)
            Placeholder.add(in: Rect(x: content.x, y: m.top, width: content.width, height: ctx.height - m.top - m.bottom),
                            scene: illustration.scene, to: index, ctx)
        case .none:
            break
        }
    }
}
