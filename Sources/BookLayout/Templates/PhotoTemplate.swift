import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: PhotoPage) -> any PageTemplate { PhotoTemplate(photo: page) }
}

/// A photo page: the whole photo inside the text area, rounded and shadowed per the tokens,
/// the caption centred beneath it. A cut-out (an image with transparency) gets no shadow: the
/// shadow would show through it as a grey box.
struct PhotoTemplate: PageTemplate {
    let photo: PhotoPage

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        let index = ctx.addPage(.photo, source: page.index)
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let caption = photo.caption.flatMap { $0.isEmpty ? nil : $0 }
            .map { ctx.setText($0, role: typo.caption, width: content.width * 0.85) }
        let gap = typo.caption.size * 1.5
        // The caption gets the room it needs (at most the frame's complement); the photo takes the rest.
        let captionRoom = min(caption.map { $0.height + gap } ?? 0, content.height * (1 - ctx.tokens.templates.photo.frameFraction))
        let box = Rect(x: content.x, y: content.y, width: content.width, height: content.height - captionRoom)
        var photoBottom = box.maxY
        switch page.image {
        case .asset(let asset):
            let fit = photo.fit ?? PhotoPage.defaultFit
            let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                           in: box, subject: page.subject, fit: fit)
            let frame = fit == .contain ? placed.frame : box
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: frame, cornerRadius: ctx.tokens.sizing.cornerRadius,
                                       shadow: asset.info.hasAlpha ? nil : ctx.tokens.sizing.shadow,
                                       altText: AltText.first(photo.caption, photo.scene))), to: index)
            if let subject = page.subject {
                ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue))
            }
            photoBottom = frame.maxY
        case .placeholder:
            let frame = ImageFit.contain(width: 3, height: 4, in: box)
            Placeholder.add(in: frame, scene: photo.scene ?? photo.caption, to: index, ctx)
            photoBottom = frame.maxY
        case .none:
            break
        }
        if let caption {
            var tb = ctx.textBox(caption, x: content.x + content.width * 0.075, y: photoBottom + gap, width: content.width * 0.85,
                                 color: ctx.palette.muted, structure: .caption)
            let room = content.maxY - tb.frame.y
            var last = caption.lines.count
            while last > 1, caption.lines[last - 1].top + caption.lines[last - 1].height > room { last -= 1 }
            if last < caption.lines.count {
                ctx.findings.append(Finding(.warning, .other, sourcePage: page.index, physicalPages: [ctx.pages[index].number],
                                            "caption too long for the page: \(caption.lines.count - last) line(s) cut; shorten it"))
            }
            tb.lines = 0..<last
            tb.frame.height = room
            ctx.append(.text(tb), to: index)
        }
        ctx.addFolio(to: index)
    }
}
