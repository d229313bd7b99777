import BookModel
import BookConfig
import BookResolve

/// The printed cover: back, spine and front on one sheet with bleed all round. The spine is as
/// wide as the interior's pages times the paper's thickness; its text appears only when the book
/// is thick enough to carry it; the barcode area on the back is left clear.
public enum CoverSpread {
    public struct Info: Sendable, Equatable {
        public var interiorPages: Int
        public var paper: String
        public var spineInches: Double
        public var spineText: Bool
        /// The area kept clear for the printer's barcode, in sheet (trim) coordinates.
        public var barcode: Rect
        public var sheetInches: (width: Double, height: Double)
        public var binding: CoverBinding
        /// The whole page, bleed (a hardcover's wrap) included: what a printer's cover calculator gives.
        public var mediaInches: (width: Double, height: Double)
        public static func == (a: Info, b: Info) -> Bool {
            a.interiorPages == b.interiorPages && a.paper == b.paper && a.spineInches == b.spineInches
                && a.spineText == b.spineText && a.barcode == b.barcode && a.sheetInches == b.sheetInches
                && a.binding == b.binding && a.mediaInches == b.mediaInches
        }
    }

    /// Barcode box of KDP and IngramSpark: 2 × 1.2 in, bottom right of the back cover.
    static let barcodeSize = (width: 144.0, height: 86.4)
    /// Cover bleed when a profile names none for the interior.
    static let defaultBleed = 9.0

    /// A hardcover's sheet reaches past the trim by its wrap where a paperback's has its bleed.
    public static func layout(_ book: ResolvedBook, interiorPages: Int, paper: String, binding: CoverBinding = .paperback,
                              typesetter: Typesetter) throws -> (PageTree, Info) {
        guard let profile = book.profile else { throw ResolveError("a cover needs a print profile (--profile kdp, lulu …)") }
        let spineInches = try profile.spineWidth(pages: interiorPages, paper: paper, binding: binding)
        let spine = spineInches * 72
        let variance = (profile.spine?.foldVariance ?? 0.0625) * 72
        let w = book.trim.width, h = book.trim.height
        let bleed = binding == .hardcover ? (profile.casewrap?.wrapInches ?? 0) * 72
            : max(defaultBleed, [profile.bleed.top, profile.bleed.bottom, profile.bleed.inner, profile.bleed.outer].map(\.points).max() ?? 0)
        let geometry = PrintGeometry(top: bleed, bottom: bleed, inner: bleed, outer: bleed, marks: profile.marks.margin.points)
        let sheet = TrimSize(width: 2 * w + spine, height: h)

        // The front is the book's own cover template, laid out for a page with bleed on every side
        // and moved to the right of the spine.
        var front = book
        front.profile?.bleed = .all(Length(points: bleed))
        front.profile?.interior = false
        front.profile?.marks.margin = Length(points: 0)
        let ctx = LayoutContext(book: front, typesetter: typesetter)
        CoverTemplate.layout(ctx)
        // A book bound on the right has its front on the left of the spine and its back on the right.
        let rightBound = book.bindsOnRight
        // The front's bleed on its spine side would reach past a thin spine onto the back: what
        // is drawn there stops at the front's fold (the spine's colour wraps past it).
        let frontPanel = Rect(x: rightBound ? -bleed : w + spine, y: -bleed, width: w + bleed, height: h + 2 * bleed)
        let frontItems = ctx.pages[0].items.compactMap { within(frontPanel, $0.translated(dx: rightBound ? 0 : w + spine, dy: 0)) }
        let backShift = rightBound ? w + spine : 0

        var items: [PageItem] = []
        let palette = book.tokens.palette
        items.append(.fill(Fill(rect: Rect(x: rightBound ? w + spine : -bleed, y: -bleed, width: w + bleed, height: h + 2 * bleed),
                                color: palette.wash)))
        let safety = max(profile.safety.points, 18)
        let barcode = Rect(x: backShift + w - safety - barcodeSize.width, y: h - safety - barcodeSize.height,
                           width: barcodeSize.width, height: barcodeSize.height)
        items += try backItems(book, width: w, safety: safety, above: barcode.y, ctx).map { $0.translated(dx: backShift, dy: 0) }
        items += frontItems
        // The binder may fold anywhere within the variance of each fold: the spine's colour runs
        // that far onto both panels, so no change of colour sits where a fold may fall.
        items.append(.fill(Fill(rect: Rect(x: w - variance, y: -bleed, width: spine + 2 * variance, height: h + 2 * bleed),
                                color: palette.spine)))
        var hasSpineText = false
        if profile.spine?.carriesText(pages: interiorPages, inches: spineInches) == true,
           let text = spineText(book, spine: Rect(x: w, y: 0, width: spine, height: h), clearance: variance,
                                ends: max(book.margins.top, profile.safety.points, 36), ctx) {
            items.append(.text(text))
            hasSpineText = true
        }
        // Kept clear: plain white, nothing drawn over it, where the printer puts the barcode.
        items.append(.fill(Fill(rect: barcode, color: .white)))

        var tree = PageTree(trim: sheet, pages: [PageNode(number: 1, role: .cover, sourcePage: nil, items: withoutTransparency(items))],
                            findings: ctx.findings, title: book.book.title, author: book.book.author, created: book.book.created)
        tree.geometry = geometry
        tree.language = book.language
        tree.subtitle = book.book.subtitle
        let media = (width: sheet.width + 2 * (bleed + geometry.marks), height: sheet.height + 2 * (bleed + geometry.marks))
        let info = Info(interiorPages: interiorPages, paper: paper, spineInches: spineInches, spineText: hasSpineText,
                        barcode: barcode, sheetInches: (sheet.width / 72, sheet.height / 72), binding: binding,
                        mediaInches: (media.width / 72, media.height / 72))
        return (tree, info)
    }

    /// `item` cut to `panel` (nil when nothing of it is left): pictures and areas; words and
    /// rules are placed inside the panel already.
    static func within(_ panel: Rect, _ item: PageItem) -> PageItem? {
        switch item {
        case .fill(var f):
            f.rect = f.rect.intersection(panel)
            return f.rect.width > 0 && f.rect.height > 0 ? .fill(f) : nil
        case .image(var i):
            i.clip = i.clip.intersection(panel)
            return i.clip.width > 0 && i.clip.height > 0 ? .image(i) : nil
        case .placeholderArt(var p):
            p.rect = p.rect.intersection(panel)
            return p.rect.width > 0 && p.rect.height > 0 ? .placeholderArt(p) : nil
        default:
            return item
        }
    }

    /// Printers want a cover without transparency (KDP and Lulu flatten it unpredictably, PDF/X-1a
    /// forbids it): no soft shadows, and a translucent fill becomes the colour it shows over the
    /// back's wash.
    static func withoutTransparency(_ items: [PageItem]) -> [PageItem] {
        guard case .fill(let ground)? = items.first else { return items }
        return items.map { item in
            switch item {
            case .fill(var f):
                f.shadow = nil
                f.color = f.color.over(ground.color)
                return .fill(f)
            case .image(var i):
                i.shadow = nil
                return .image(i)
            default:
                return item
            }
        }
    }

    /// The back: the blurb and, under it, about the author, when the book gives a blurb; else
    /// title, subtitle and author in its upper part. Clear of the barcode either way.
    private static func backItems(_ book: ResolvedBook, width w: Double, safety: Double, above limit: Double, _ ctx: LayoutContext) throws -> [PageItem] {
        let typo = book.tokens.typography
        let textWidth = w - 2 * max(safety, book.margins.outer)
        let x = (w - textWidth) / 2
        // The publisher's mark at the foot, on the side away from the barcode, its foot on the barcode's.
        var items: [PageItem] = []
        if let logo = book.publisherLogo {
            let size = fitted(logo, maxWidth: min(1.5 * 72, textWidth / 3), maxHeight: 0.5 * 72)
            let frame = Rect(x: x, y: limit + barcodeSize.height - size.height, width: size.width, height: size.height)
            items.append(.image(ImageBox(asset: logo, frame: frame, clip: frame, altText: book.book.matter?.publisher)))
        }
        if let blurb = book.book.cover?.blurb, !blurb.isEmpty {
            return items + (try blurbItems(blurb, bio: book.book.matter?.aboutTheAuthor, photo: book.authorPhoto, book, x: x, width: textWidth,
                                           top: max(safety, book.margins.top) + typo.body.size, limit: limit - typo.body.size, ctx))
        }
        var y = max(safety, book.margins.top) + typo.title.size
        for (text, role, scale, color) in [(book.book.title, typo.title, 0.7, book.tokens.palette.ink),
                                           (book.book.subtitle, typo.subtitle, 1.0, book.tokens.palette.ink),
                                           (book.book.author, typo.subtitle, 0.9, book.tokens.palette.muted)] {
            guard let text, !text.isEmpty else { continue }
            let layout = ctx.setText(text, role: role, width: textWidth, scale: scale, alignment: .center)
            guard y + layout.height < limit else { break }
            items.append(.text(ctx.textBox(layout, x: x, y: y, width: textWidth, color: color)))
            y += layout.height + role.size * 0.8
        }
        return items
    }

    /// The blurb in the body's type, about the author under it in the caption's, a little smaller
    /// when they need it; a blurb that does not fit the back even so is an error that says so.
    private static func blurbItems(_ blurb: String, bio: String?, photo: ImageAsset?, _ book: ResolvedBook, x: Double, width: Double,
                                   top: Double, limit: Double, _ ctx: LayoutContext) throws -> [PageItem] {
        let typo = book.tokens.typography
        // Centred in a theme whose body is centred (a picture book), ranged left otherwise.
        let alignment: TextAlignment = typo.body.align == "center" ? .center : .start
        let palette = book.tokens.palette
        var role = typo.body
        role.indent = 0
        for withBio in bio == nil ? [false] : [true, false] {
            for scale in [1.0, 0.9, 0.8] {
                let text = ctx.setText(blurb, role: role, width: width, scale: scale, alignment: alignment)
                let gap = typo.body.size * scale * 1.5
                // The author's portrait beside the bio, on the side the lines start from.
                let portrait = withBio ? photo.map { fitted($0, maxWidth: min(width * 0.25, 1.1 * 72), maxHeight: 1.4 * 72) } : nil
                let portraitGap = portrait == nil ? 0 : typo.caption.size * scale
                let bioWidth = width - (portrait.map { $0.width + portraitGap } ?? 0)
                let about = withBio ? bio.map { ctx.setText($0, role: typo.caption, width: bioWidth, scale: scale, alignment: portrait == nil ? alignment : .start) } : nil
                let aboutHeight = max(about?.height ?? 0, portrait?.height ?? 0)
                guard top + text.height + (about == nil ? 0 : gap + aboutHeight) <= limit else { continue }
                var items: [PageItem] = [.text(ctx.textBox(text, x: x, y: top, width: width, color: palette.ink))]
                if let about {
                    let y = top + text.height + gap
                    if let portrait, let photo {
                        let frame = Rect(x: x, y: y, width: portrait.width, height: portrait.height)
                        items.append(.image(ImageBox(asset: photo, frame: frame, clip: frame, altText: book.book.author)))
                    }
                    let bioX = x + (portrait.map { $0.width + portraitGap } ?? 0)
                    items.append(.text(ctx.textBox(about, x: bioX, y: y, width: bioWidth, color: palette.muted)))
                }
                return items
            }
        }
        let words = blurb.split(whereSeparator: { $0.isWhitespace }).count
        throw ResolveError("$.cover.blurb: its \(words) words do not fit the back cover above the barcode, even at 80 % of the body size; shorten it")
    }

    /// "Title · Author" (and "· Publisher" where it fits as large) along the spine, reading top to bottom, its ink centred across the spine
    /// and along it, sized so the ink keeps `clearance` from each fold and `ends` from the top and
    /// bottom trim. Nil when it would be too small to read.
    private static func spineText(_ book: ResolvedBook, spine: Rect, clearance: Double, ends: Double, _ ctx: LayoutContext) -> TextBox? {
        let plain = [book.book.title, book.book.author].compactMap { $0 }.joined(separator: "  ·  ")
        let set = spineText(plain, book, spine: spine, clearance: clearance, ends: ends, ctx)
        // The publisher joins them where the spine is long enough that the rest stays as large.
        if let publisher = book.book.matter?.publisher, !publisher.isEmpty, let set,
           let withPublisher = spineText(plain + "  ·  " + publisher, book, spine: spine, clearance: clearance, ends: ends, ctx),
           withPublisher.layout.style.size >= set.layout.style.size * 0.95 {
            return withPublisher
        }
        return set
    }

    private static func spineText(_ line: String, _ book: ResolvedBook, spine: Rect, clearance: Double, ends: Double,
                                  _ ctx: LayoutContext) -> TextBox? {
        let across = spine.width - 2 * clearance, along = spine.height - 2 * ends
        guard across > 0, along > 0 else { return nil }
        var role = book.tokens.typography.title
        role.lineHeight = 1.0
        role.size *= 0.5
        // The ink of a size is known only once it is set: the theme's size, made smaller until it fits.
        for _ in 0..<6 {
            guard role.size >= minimumSpineTextSize else { return nil }
            let layout = ctx.setText(line, role: role, width: along * 4, alignment: .start)
            guard layout.lines.count == 1, let ink = layout.inkBounds(line: 0) else { return nil }
            let fit = min(across / ink.height, along / ink.width)
            if fit < 1 {
                role.size *= fit * 0.95
                continue
            }
            // Turned clockwise, the layout's y runs right to left across the spine and its x top
            // to bottom along it (see TextBox.turnedClockwise).
            let top = layout.lines[0].top
            let right = spine.x + spine.width / 2 + (ink.y - top) + ink.height / 2
            var box = ctx.textBox(layout, x: right - layout.height, y: spine.y + spine.height / 2 - ink.x - ink.width / 2,
                                  width: layout.height, color: spineInk(book.tokens.palette))
            box.frame.height = ink.x + ink.width
            box.turnedClockwise = true
            return box
        }
        return nil
    }

    /// The theme's ink or its paper colour, whichever reads better on the spine: a spine that
    /// continues a light back takes the ink, a dark one the paper.
    static func spineInk(_ palette: Palette) -> Color {
        TextContrast.ratio(palette.ink, palette.spine) >= TextContrast.ratio(palette.background, palette.spine) ? palette.ink : palette.background
    }

    /// A picture's size scaled, whole, to fit within the bounds.
    static func fitted(_ asset: ImageAsset, maxWidth: Double, maxHeight: Double) -> (width: Double, height: Double) {
        let w = Double(max(1, asset.info.orientedWidth)), h = Double(max(1, asset.info.orientedHeight))
        let scale = min(maxWidth / w, maxHeight / h)
        return (w * scale, h * scale)
    }

    /// Smaller spine text does not print legibly.
    static let minimumSpineTextSize = 3.0
}

private extension Color {
    /// The opaque colour this one shows when laid over `backdrop`.
    func over(_ backdrop: Color) -> Color {
        guard alpha < 1 else { return self }
        func mix(_ a: Double, _ b: Double) -> Double { a * alpha + b * (1 - alpha) }
        return Color(red: mix(red, backdrop.red), green: mix(green, backdrop.green), blue: mix(blue, backdrop.blue), alpha: 1)
    }
}
