import BookConfig
import BookModel
import BookResolve

/// The words of a full-bleed cover, set as a picture book's jacket sets them: the title large
/// (its capitals at least `capShare` of the cover's height), the subtitle and author smaller under
/// it, over the quiet part of the art with the pages' legibility rule (ink or paper colour, a soft
/// veil only where it must). A jacket's title may cross a cloud or the sun, as a page's words may
/// not, but never the subject. No card, no shadow: where no place leaves the subject clear, a flat
/// band of paper across the head or foot takes the words and the picture fills the rest.
enum FullBleedTitle {
    /// The title's cap height over the cover's height.
    static let capShare = 0.085

    /// Places the picture (`asset`; nil when a placeholder is drawn already) and the words.
    static func place(on index: Int, page: Rect, asset: ImageAsset?, fit: PictureFit, alt: String?, _ ctx: LayoutContext) {
        let cover = ctx.book.cover
        let typo = ctx.tokens.typography
        let margins = ctx.book.margins
        let textWidth = ctx.width - margins.inner - margins.outer
        let area = Rect(x: margins.inner, y: margins.top, width: textWidth, height: ctx.height - margins.top - margins.bottom)
        var scale = titleScale(ctx, width: textWidth)
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
            let title = ctx.setTitle(cover.title, role: typo.title, width: width, scale: scale, smallestScale: scale, alignment: .center)
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
        if let drawn = whole, let subject = cover.subject,
           let choice = QuietPlacer.choose(positions: positions, text: { position in
               words(width: OverlayPlacer.spansWidth(position) ? textWidth : textWidth * OverlayPlacer.cornerShare)
           }, area: area, frame: drawn.placed.frame, subject: subject, settings: placement, palette: ctx.palette,
              allowsVeil: allowsVeil, page: page, maxBusy: .infinity) {
            let set = words(width: choice.block.width)
            ctx.append(.image(ImageBox(asset: drawn.asset, frame: drawn.placed.frame, clip: page, altText: alt)), to: index)
            if let scrim = choice.scrim { ctx.append(.fill(scrim), to: index) }
            let y = [.bottom, .bottomLeft, .bottomRight].contains(choice.position) ? choice.block.maxY - set.height : choice.block.y
            append(set, x: choice.block.x, y: y, color: choice.textColor, on: index, ctx)
            record(drawn, subject: subject, fit: fit, covers: choice.block, position: choice.position.rawValue,
                   contrast: choice.contrast, page: page, on: index, ctx)
            return
        }
        // A flat band of paper at the head, or at the foot when the subject stands high; the
        // picture fills the rest, cropped anew around its subject.
        // The band leaves the picture at least half the cover, and room to show its whole subject:
        // a long title is set smaller for it (the subject comes before the title's size).
        var set = words(width: textWidth)
        func leavesRoom(_ set: PictureText) -> Bool {
            let bandHeight = set.height + 2 * set.pad + max(margins.top, margins.bottom)
            guard bandHeight <= ctx.height * 0.5 else { return false }
            guard let asset, let subject = cover.subject else { return true }
            let rest = (width: page.width, height: page.height - bandHeight)
            let w = Double(asset.info.orientedWidth), h = Double(asset.info.orientedHeight)
            let s = max(rest.width / w, rest.height / h)
            return rest.height / (h * s) >= subject.box.height * 1.04 && rest.width / (w * s) >= subject.box.width * 1.04
        }
        while !leavesRoom(set), scale > 1 {
            scale = max(1, scale * 0.92)
            made = [:]
            set = words(width: textWidth)
        }
        let atFoot = (cover.subject?.box.midY ?? 1) < 0.5
        let bandHeight = set.height + 2 * set.pad + (atFoot ? margins.bottom : margins.top)
        let band = atFoot ? Rect(x: page.x, y: page.maxY - bandHeight, width: page.width, height: bandHeight)
                          : Rect(x: page.x, y: page.y, width: page.width, height: bandHeight - page.y)
        let rest = atFoot ? Rect(x: page.x, y: page.y, width: page.width, height: band.y - page.y)
                          : Rect(x: page.x, y: band.maxY, width: page.width, height: page.maxY - band.maxY)
        let drawn = rest.height > 0 ? placed(in: rest) : nil
        if let drawn { ctx.append(.image(ImageBox(asset: drawn.asset, frame: drawn.placed.frame, clip: rest, altText: alt)), to: index) }
        ctx.append(.fill(Fill(rect: band, color: ctx.palette.background)), to: index)
        let top = atFoot ? band.y + set.pad : margins.top + set.pad
        append(set, x: margins.inner, y: top, color: ctx.palette.ink, on: index, ctx)
        if let drawn, let subject = cover.subject {
            record(drawn, subject: subject, fit: fit, covers: band, position: atFoot ? "bottom" : "top",
                   contrast: TextContrast.ratio(ctx.palette.ink, ctx.palette.background), page: rest, on: index, ctx)
        }
    }

    /// How much larger than the theme's title size the title is set for its capitals to take
    /// `capShare` of the cover's height (1 when the theme's own size is large enough), held
    /// where the title's longest word still fits `width`: a word is never broken to be larger.
    static func titleScale(_ ctx: LayoutContext, width: Double) -> Double {
        let role = ctx.tokens.typography.title
        let probe = ctx.setText("H", role: role, width: 10_000, alignment: .start)
        guard let cap = probe.lines.first?.ink.height, cap > 0 else { return 1 }
        let wanted = capShare * ctx.height / cap
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
