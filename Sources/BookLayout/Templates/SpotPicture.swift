import BookConfig
import BookModel
import BookResolve

/// A picture whose words are too long to stand on it and that cannot open a spread with a text page
/// facing it: the picture becomes a spot picture at the head of the text area, cropped around its
/// subject, and the words are set under it at the body size.
enum SpotPicture {
    /// The least share of the text area's height the picture keeps.
    static let leastShare = 0.3

    static func add(_ page: ResolvedPage, _ words: IllustrationTemplate.Words, fit: PictureFit, scene: String?, altText: String?,
                    _ ctx: LayoutContext) {
        let index = ctx.addPage(.illustration, source: page.index)
        let number = ctx.pages[index].number
        let content = ctx.contentRect(for: number)
        let width = PictureText.measureWidth(ctx, column: content.width)
        let text = PictureText.set(heading: words.heading, caption: words.caption, body: words.body, width: width, ctx)
        let gap = ctx.tokens.typography.body.size * 1.2
        let pictureHeight = max(content.height * leastShare, content.height - text.height - gap)
        let frame = Rect(x: content.x, y: content.y, width: content.width, height: pictureHeight)
        switch page.image {
        case .asset(let asset):
            let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                           in: frame, subject: page.subject, fit: fit)
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: frame, altText: altText)), to: index)
            if let subject = page.subject {
                var record = ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue)
                record.textPosition = "below"
                record.textBacking = "page"
                ctx.pages[index].art.append(record)
            }
        case .placeholder:
            Placeholder.add(in: frame, scene: scene, to: index, ctx)
        case .none:
            break
        }
        let top = frame.maxY + gap
        let x = content.x + (content.width - width) / 2
        if text.height <= content.maxY - top + 0.01 || text.body == nil {
            text.place(x: x, y: top, color: ctx.palette.ink, muted: ctx.palette.muted, on: index, ctx)
            ctx.addFolio(to: index)
            return
        }
        // Still longer than the page: what fits stays under the picture, the rest flows on.
        let lead = PictureText.set(heading: words.heading, caption: words.caption, body: nil, width: width, ctx)
        lead.place(x: x, y: top, color: ctx.palette.ink, muted: ctx.palette.muted, on: index, ctx)
        let body = ctx.setText(words.body ?? "", role: ctx.tokens.typography.body, width: content.width)
        ctx.findings.append(Finding(.warning, .other, sourcePage: page.index, physicalPages: [number],
                                    "the picture's text runs longer than a page; it continues on the page after it"))
        TextFlow.flow(body, from: 0, role: .text, source: page.index, ctx,
                      startingOn: (index, top + (lead.isEmpty ? 0 : lead.height + lead.gap)))
    }
}
