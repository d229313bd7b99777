import BookConfig
import BookModel
import BookResolve

/// The words of a full-bleed cover, set as a picture book's jacket sets them: the title large
/// (its capitals at least `capShare` of the cover's height), the subtitle and author smaller under
/// it, over the quiet part of the art with the pages' legibility rule (ink or paper colour, a soft
/// veil only where it must). A jacket's title may cross a cloud or the sun, as a page's words may
/// not, but never the subject. No card, no shadow: where no place leaves the subject clear, a flat
/// band of the theme's wash across the head or foot takes the words and the picture fills the
/// rest, or, for a title too long for that, the words stand on the wash over or under the picture
/// framed whole.
enum FullBleedTitle {
    /// The title's cap height over the cover's height.
    static let capShare = 0.085
    /// The least it is set at where its longest word fits the cover's width: a long title gives
    /// up a little size, then room of the picture, before it goes under this.
    static let leastCapShare = 0.08

    /// Places the picture (`asset`; nil when a placeholder is drawn already) and the words. A
    /// title the theme's face cannot set at its least share anywhere on the cover (a dozen words
    /// beside a picture) is set in the theme's condensed face instead, where it has one.
    static func place(on index: Int, page: Rect, asset: ImageAsset?, fit: PictureFit, alt: String?, _ ctx: LayoutContext) {
        let role = ctx.tokens.typography.title
        // Whether the condensed face can set the title costs a font load and a layout: asked only
        // once the theme's own face has failed.
        if role.condensedRole != nil {
            if place(on: index, page: page, asset: asset, fit: fit, alt: alt, role: role, keepingLeastShare: true,
                     leastPlate: leastPlate, ctx) { return }
            if let condensed = ctx.condensedRole(of: role, for: ctx.book.cover.title) {
                place(on: index, page: page, asset: asset, fit: fit, alt: alt, role: condensed, keepingLeastShare: false,
                      leastPlate: leastCondensedPlate, ctx)
                return
            }
        }
        place(on: index, page: page, asset: asset, fit: fit, alt: alt, role: role, keepingLeastShare: false,
              leastPlate: leastPlate, ctx)
    }

    /// Places the picture and the words with the title in `role`, a framed picture keeping
    /// `leastPlate` of the cover's height; with `keepingLeastShare`, places nothing and answers
    /// false when the title would have to go under its least share.
    @discardableResult
    private static func place(on index: Int, page: Rect, asset: ImageAsset?, fit: PictureFit, alt: String?, role: TypeRole,
                              keepingLeastShare: Bool, leastPlate: Double, _ ctx: LayoutContext) -> Bool {
        let cover = ctx.book.cover
        let typo = ctx.tokens.typography
        let margins = ctx.jacketMargins
        let textWidth = ctx.width - margins.inner - margins.outer
        let area = Rect(x: margins.inner, y: margins.top, width: textWidth, height: ctx.height - margins.top - margins.bottom)
        var scale = titleScale(ctx, width: textWidth, role: role)
        // The least share whatever the words: a long word that holds the theme's face under it
        // ("Lighthouse" in a wide serif) is as good a reason for the condensed face as many words.
        let leastShare = titleScale(ctx, width: textWidth, share: leastCapShare, role: role, heldByLongestWord: false)
        if keepingLeastShare, scale < leastShare * 0.999 { return false }
        func placed(in rect: Rect) -> (asset: ImageAsset, placed: SubjectCrop.Placement)? {
            asset.map { ($0, SubjectCrop.place(width: Double($0.info.orientedWidth), height: Double($0.info.orientedHeight),
                                               in: rect, subject: cover.subject, fit: fit)) }
        }
        let whole = placed(in: page)
        var made: [Double: PictureText] = [:]
        func words(width: Double) -> PictureText {
            if let set = made[width] { return set }
            // The title never below the scale that gives its capitals their share; the subtitle
            // and author a clear step down, never below the theme's own sizes.
            let title = ctx.setTitle(cover.title, role: role, width: width, scale: scale, smallestScale: scale, alignment: .center)
            let subtitle = cover.subtitle.map {
                ctx.setTitle($0, role: typo.subtitle, width: width, scale: max(1, scale * 0.45), alignment: .center)
            }
            let author = cover.author.map { ctx.setText($0, role: typo.subtitle, width: width, scale: max(0.85, scale * 0.4), alignment: .center) }
            let gap = typo.subtitle.size * max(1, scale * 0.45) * 0.6
            let parts = [title, subtitle, author].compactMap { $0 }
            let height = parts.reduce(0) { $0 + $1.height } + Double(parts.count - 1) * gap
            let set = PictureText(heading: title, caption: subtitle, body: author, width: width, height: height, gap: gap,
                                  pad: typo.title.size * 0.4)
            made[width] = set
            return set
        }
        let placement = ctx.tokens.templates.cover.placement ?? TextPlacementSettings()
        let positions = placement.candidates(allowed: TextPosition.overlays)
        let allowsVeil = ctx.book.profile.map { $0.allowsTransparency && !$0.isCMYK } ?? true
        // Words over the art only where the picture filling the cover shows its subject whole: a
        // close-up cropped to a landscape cover goes to the band or a frame instead.
        if let drawn = whole, let subject = cover.subject,
           SubjectVisibility.shares(subject, frame: drawn.placed.frame, visible: page.intersection(ctx.pageRect), covers: []).kept >= wholeSubject,
           let choice = QuietPlacer.choose(positions: positions, text: { position in
               words(width: OverlayPlacer.spansWidth(position) ? textWidth : textWidth * OverlayPlacer.cornerShare)
           }, area: area, frame: drawn.placed.frame, subject: subject, settings: placement, palette: ctx.palette,
              allowsVeil: allowsVeil, page: page, maxBusy: .infinity, clearOfSubject: true) {
            let set = words(width: choice.block.width)
            ctx.append(.image(ImageBox(asset: drawn.asset, frame: drawn.placed.frame, clip: page, altText: alt)), to: index)
            if let scrim = choice.scrim { ctx.append(.fill(scrim), to: index) }
            let y = [.bottom, .bottomLeft, .bottomRight].contains(choice.position) ? choice.block.maxY - set.height : choice.block.y
            append(set, x: choice.block.x, y: y, color: choice.textColor, on: index, ctx)
            record(drawn, subject: subject, fit: fit, covers: choice.block, position: choice.position.rawValue,
                   contrast: choice.contrast, page: page, on: index, ctx)
            return true
        }
        // A flat band of the wash at the head, or at the foot when the subject stands high; the
        // picture fills the rest, cropped anew around its subject. A title too long for that
        // (the band would leave the picture less than half the cover, or too little to show its
        // whole subject) is first set a little smaller, down to its least share; then the picture
        // is framed whole under it on the paper, as a jacket with lettering over a plate is.
        let least = min(scale, titleScale(ctx, width: textWidth, share: leastCapShare, role: role))
        let atFoot = (cover.subject?.box.midY ?? 1) < 0.5
        let edge = atFoot ? margins.bottom : margins.top
        // Over a picture's edge the band needs its full padding; on the paper beside a framed
        // picture the margins already hold the words apart from it.
        var padShare = 1.0
        func bandHeight(_ set: PictureText) -> Double { set.height + 2 * set.pad * padShare + edge }
        func fillsRest(_ set: PictureText) -> Bool {
            guard bandHeight(set) <= ctx.height * 0.5 else { return false }
            guard let asset, let subject = cover.subject else { return true }
            let rest = (width: page.width, height: page.height - bandHeight(set))
            let w = Double(asset.info.orientedWidth), h = Double(asset.info.orientedHeight)
            let s = max(rest.width / w, rest.height / h)
            return rest.height / (h * s) >= subject.box.height * 1.04 && rest.width / (w * s) >= subject.box.width * 1.04
        }
        func reset(_ newScale: Double) -> PictureText {
            scale = newScale
            made = [:]
            return words(width: textWidth)
        }
        var set = words(width: textWidth)
        while !fillsRest(set), scale > least {
            set = reset(max(least, scale * 0.95))
        }
        let framed = !fillsRest(set)
        // A framed picture keeps at least a quarter of the cover's height; only a title that would
        // leave it less is set smaller than its least share.
        if framed { padShare = 0.5 }
        if framed, asset != nil {
            let farEdge = atFoot ? margins.top : margins.bottom
            let themeLeast = min(1, (typo.title.minSize ?? typo.title.size) / typo.title.size)
            while ctx.height - bandHeight(set) - farEdge < ctx.height * leastPlate, scale > themeLeast {
                set = reset(max(themeLeast, scale * 0.99))
            }
        }
        if keepingLeastShare, scale < least * 0.999 { return false }
        let height = bandHeight(set)
        let band = atFoot ? Rect(x: page.x, y: page.maxY - height, width: page.width, height: height)
                          : Rect(x: page.x, y: page.y, width: page.width, height: height - page.y)
        let rest = atFoot ? Rect(x: page.x, y: page.y, width: page.width, height: band.y - page.y)
                          : Rect(x: page.x, y: band.maxY, width: page.width, height: page.maxY - band.maxY)
        // The band and the paper around a framed picture are the theme's wash: the ground of its
        // typographic cover, and of the spine and back it meets on a printed sheet.
        let ground = ctx.palette.wash
        var shown: (drawn: (asset: ImageAsset, placed: SubjectCrop.Placement), clip: Rect)?
        func fillRest() {
            guard rest.height > 0, let drawn = placed(in: rest) else { return }
            ctx.append(.image(ImageBox(asset: drawn.asset, frame: drawn.placed.frame, clip: rest, altText: alt)), to: index)
            shown = (drawn, rest)
        }
        if framed {
            ctx.append(.fill(Fill(rect: page, color: ground)), to: index)
            if let asset, let frame = plate(for: asset, subject: cover.subject, beside: band, atFoot: atFoot, ctx) {
                let drawn = (asset, SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                                      in: frame, subject: cover.subject, fit: .cover))
                ctx.append(.image(ImageBox(asset: asset, frame: drawn.1.frame, clip: frame, altText: alt)), to: index)
                shown = (drawn, frame)
            } else {
                // No room inside the margins (a tiny trim): the picture fills what the band leaves.
                fillRest()
            }
        } else {
            fillRest()
            ctx.append(.fill(Fill(rect: band, color: ground)), to: index)
        }
        let top = atFoot ? band.y + set.pad * padShare : margins.top + set.pad * padShare
        append(set, x: margins.inner, y: top, color: ctx.palette.ink, on: index, ctx)
        if let shown, let subject = cover.subject {
            record(shown.drawn, subject: subject, fit: framed ? .cover : fit, covers: band, position: atFoot ? "bottom" : "top",
                   contrast: TextContrast.ratio(ctx.palette.ink, ground), page: shown.clip, on: index, ctx)
        }
        return true
    }

    /// The share of the subject's weight a picture filling the cover shows for words to go over it.
    static let wholeSubject = 0.97

    /// The least share of the cover's height a framed picture keeps beside a long title.
    static let leastPlate = 0.25
    /// The same beside a title in the condensed face: that title has already given up width
    /// rather than size, and its picture gives up a little more height so that it keeps its size.
    static let leastCondensedPlate = 0.18

    /// The frame of a picture set on the paper beside the title's band: as large as the room
    /// inside the margins allows while at least `plateShown` of the picture's width and height
    /// and its whole subject stay in view (a plate shows a picture, not a strip cut from it),
    /// centred across the page.
    private static func plate(for asset: ImageAsset, subject: PictureSubject?, beside band: Rect, atFoot: Bool,
                              _ ctx: LayoutContext) -> Rect? {
        let margins = ctx.jacketMargins
        let top = atFoot ? margins.top : band.maxY
        let bottom = atFoot ? band.y : ctx.height - margins.bottom
        let room = Rect(x: margins.inner, y: top, width: ctx.width - margins.inner - margins.outer, height: bottom - top)
        guard room.width > 0, room.height > 0 else { return nil }
        let w = Double(asset.info.orientedWidth), h = Double(asset.info.orientedHeight)
        let box = subject?.box
        let s = min(room.height / (h * max(plateShown, min(1, (box?.height ?? 0) * 1.04))),
                    room.width / (w * max(plateShown, min(1, (box?.width ?? 0) * 1.04))))
        let size = (width: min(room.width, w * s), height: min(room.height, h * s))
        return Rect(x: room.x + (room.width - size.width) / 2, y: room.y + (room.height - size.height) / 2,
                    width: size.width, height: size.height)
    }

    /// The least share of a framed picture's width and of its height that stays in view.
    static let plateShown = 0.8

    /// How much larger than the theme's title size the title is set for its capitals to take
    /// `capShare` of the cover's height (1 when the theme's own size is large enough), held
    /// where the title's longest word still fits `width`: a word is never broken to be larger.
    static func titleScale(_ ctx: LayoutContext, width: Double, share: Double = capShare, role: TypeRole? = nil,
                           heldByLongestWord: Bool = true) -> Double {
        let role = role ?? ctx.tokens.typography.title
        let probe = ctx.setText("H", role: role, width: 10_000, alignment: .start)
        guard let cap = probe.lines.first?.ink.height, cap > 0 else { return 1 }
        let wanted = share * ctx.height / cap
        guard heldByLongestWord else { return max(1, wanted) }
        let words: [Substring] = ctx.book.cover.title.split(whereSeparator: { $0.isWhitespace })
        let longest = words.max { $0.count < $1.count }.map(String.init) ?? ""
        let wordWidth = ctx.setText(longest, role: role, width: 10_000, alignment: .start).lines.map(\.width).max() ?? 0
        let fitting = wordWidth > 0 ? width / wordWidth : wanted
        return max(1, min(wanted, fitting * 0.98))
    }

    private static func append(_ set: PictureText, x: Double, y: Double, color: Color, on index: Int, _ ctx: LayoutContext) {
        var y = y
        if let title = set.heading {
            ctx.append(.text(ctx.textBox(title, x: x, y: y, width: set.width, color: color, structure: .title)), to: index)
            y += title.height + set.gap
        }
        for part in [set.caption, set.body].compactMap({ $0 }) {
            ctx.append(.text(ctx.textBox(part, x: x, y: y, width: set.width, color: color)), to: index)
            y += part.height + set.gap
        }
    }

    private static func record(_ drawn: (asset: ImageAsset, placed: SubjectCrop.Placement), subject: PictureSubject, fit: PictureFit,
                               covers block: Rect, position: String, contrast: Double, page: Rect, on index: Int, _ ctx: LayoutContext) {
        let visible = page.intersection(ctx.pageRect)
        var record = ArtPlacement(asset: drawn.asset, subject: subject, placement: drawn.placed, fit: fit.rawValue, visible: visible)
        record.textPosition = position
        record.measure(subject, frame: drawn.placed.frame, visible: visible, covers: [block])
        record.textContrast = contrast
        ctx.pages[index].art.append(record)
    }
}

extension LayoutContext {
    /// The role's condensed face for `text`, when the role has one, the font set holds it (an
    /// unknown family would be set in the default face, no narrower) and it draws every character
    /// of the text itself (a face without the title's script, Japanese in a Latin narrow face,
    /// would hand it to a fallback face).
    func condensedRole(of role: TypeRole, for text: String) -> TypeRole? {
        guard let condensed = role.condensedRole, typesetter.fonts.hasFamily(condensed.family),
              let file = typesetter.fonts.resolvedFile(family: condensed.family, weight: condensed.weight, italic: condensed.italic,
                                                       language: book.language) else { return nil }
        return setText(text, role: condensed, width: 100_000).fontFiles == [file] ? condensed : nil
    }
}
