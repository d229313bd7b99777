import BookConfig
import BookModel
import BookResolve

/// Page 1: the front cover from the cover settings (title, subtitle, accent colour, picture).
enum CoverTemplate {
    static func layout(_ ctx: LayoutContext) {
        let cover = ctx.book.cover
        let index = ctx.addPage(.cover, source: nil)
        let typo = ctx.tokens.typography
        let margins = ctx.book.margins
        let textWidth = ctx.width - margins.inner - margins.outer
        let textX = margins.inner

        let fullBleed = ctx.tokens.templates.cover.style == "full-bleed"
        // The title block may take this much of the page; a long title is set smaller until it fits,
        // so nothing runs off the cover.
        let room = fullBleed ? ctx.height * 0.45 - margins.top
                             : ctx.height - margins.top - margins.bottom - ctx.height * 0.28 - typo.title.size * 1.2
        if ctx.book.profile?.interior != true, case .none = cover.image {
            TypographicCover(ctx: ctx, index: index).layout()
            return
        }
        // The title breaks evenly and shrinks to the theme's minimum within what the subtitle and
        // author leave; they give way first when the room is short.
        var title: TextLayout!, subtitle: TextLayout?, author: TextLayout?
        var gap = 0.0, blockHeight = 0.0
        func setTitleBlock(width textWidth: Double) {
            for scale in [1.0, 0.85, 0.7] {
                subtitle = cover.subtitle.map { ctx.setTitle($0, role: typo.subtitle, width: textWidth, scale: scale, alignment: .center) }
                author = cover.author.map { ctx.setText($0, role: typo.subtitle, width: textWidth, scale: 0.85 * scale, alignment: .center) }
                gap = typo.subtitle.size * 0.8 * scale
                let rest = (subtitle.map { gap + $0.height } ?? 0) + (author.map { gap * 1.5 + $0.height } ?? 0)
                title = ctx.setTitle(cover.title, role: typo.title, width: textWidth, maxHeight: room - rest, alignment: .center)
                blockHeight = title.height + rest
                if blockHeight <= room { break }
            }
        }
        setTitleBlock(width: textWidth)

        func placeTitleBlock(top: Double, color: Color, x textX: Double = textX, width textWidth: Double = textWidth) {
            var y = top
            ctx.append(.text(ctx.textBox(title, x: textX, y: y, width: textWidth, color: color, structure: .title)), to: index)
            y += title.height
            if let subtitle {
                y += gap
                ctx.append(.text(ctx.textBox(subtitle, x: textX, y: y, width: textWidth, color: color)), to: index)
                y += subtitle.height
            }
            if let author {
                y += gap * 1.5
                ctx.append(.text(ctx.textBox(author, x: textX, y: y, width: textWidth, color: color)), to: index)
            }
        }

        let page = ctx.bleedRect(for: ctx.pages[index].number)
        if ctx.book.profile?.interior == true {
            // A print interior opens on a title page; the cover itself is `bookrender cover`'s.
            placeTitleBlock(top: ctx.height * 0.3, color: ctx.palette.ink)
            return
        }
        let fit = ctx.book.book.cover?.fit ?? (fullBleed ? .cover : .contain)
        if fullBleed {
            // The picture fills the page; the title stands large over its quiet part.
            switch cover.image {
            case .asset(let asset):
                FullBleedTitle.place(on: index, page: page, asset: asset, fit: fit, alt: coverAlt(ctx), ctx)
            default:
                ctx.notePlaceholder(onPage: ctx.pages[index].number, source: nil)
                ctx.append(.fill(Fill(rect: page, color: cover.accent)), to: index)
                ctx.append(.placeholderArt(PlaceholderArt(rect: Rect(x: page.x, y: page.y + page.height * 0.45, width: page.width, height: page.height * 0.55),
                                                          wash: cover.accent, ink: ctx.palette.background,
                                                          accent: ctx.palette.wash, cornerRadius: 0)), to: index)
                FullBleedTitle.place(on: index, page: page, asset: nil, fit: fit, alt: nil, ctx)
            }
        } else {
            // Paper cover: an accent band at the spine edge, a framed photo, the title beneath. A
            // printed sheet has its real spine there: the band would read as a second one.
            if ctx.book.profile == nil {
                ctx.append(.fill(Fill(rect: Rect(x: page.x, y: page.y, width: ctx.width * 0.06 - page.x, height: page.height),
                                      color: cover.accent)), to: index)
            }
            // The photo takes what the title block leaves, up to half the page.
            let photoHeight = min(ctx.height * 0.5, ctx.height - margins.top - margins.bottom - blockHeight - typo.title.size * 1.2)
            let photoBox = Rect(x: textX, y: margins.top, width: textWidth, height: max(photoHeight, ctx.height * 0.2))
            var below = margins.top + ctx.height * 0.12
            if case .asset(let asset) = cover.image {
                let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                               in: photoBox, subject: cover.subject, fit: fit)
                let frame = fit == .contain ? placed.frame : photoBox
                if let subject = cover.subject {
                    ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue,
                                                             visible: frame.intersection(ctx.pageRect)))
                }
                ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: frame,
                                           cornerRadius: ctx.tokens.sizing.cornerRadius,
                                           shadow: asset.info.hasAlpha ? nil : ctx.tokens.sizing.shadow,
                                           altText: coverAlt(ctx))), to: index)
                below = frame.maxY + typo.title.size * 1.2
            } else if case .placeholder = cover.image {
                Placeholder.add(in: photoBox, scene: nil, to: index, ctx)
                below = photoBox.maxY + typo.title.size * 1.2
            }
            placeTitleBlock(top: below, color: ctx.palette.ink)
            let ruleW = textWidth * 0.25
            ctx.append(.rule(Rule(from: (textX + (textWidth - ruleW) / 2, below - typo.title.size * 0.5),
                                  to: (textX + (textWidth + ruleW) / 2, below - typo.title.size * 0.5),
                                  width: 1.5, color: cover.accent)), to: index)
        }
    }

    /// The cover's picture, for a reader that cannot see it: the cover's words (the page's text).
    private static func coverAlt(_ ctx: LayoutContext) -> String? {
        let cover = ctx.book.cover
        return AltText.first([cover.title, cover.subtitle, cover.author].compactMap { $0 }.joined(separator: "\n"))
    }
}
