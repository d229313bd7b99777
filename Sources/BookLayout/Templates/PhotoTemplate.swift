import BookConfig
import BookModel
import BookResolve

extension TemplateRegistry {
    func visit(_ page: PhotoPage) -> any PageTemplate { PhotoTemplate(photo: page) }
}

/// A photo page: the whole photo inside the text area, the caption centred beneath it. Corners
/// and shadow as the tokens say on screen; a printed book's photos are square and flat, as
/// photos printed on the page are. A cut-out (an image with transparency) gets no shadow: the
/// shadow would show through it as a grey box. A panorama runs the width of the text area at the
/// head of its page, and the text that follows it starts under it.
struct PhotoTemplate: PageTemplate {
    let photo: PhotoPage

    /// Wider than this (width over height), a photo is a panorama.
    static let panoramaAspect = 2.0

    func layout(_ page: ResolvedPage, _ ctx: LayoutContext) {
        if case .asset(let asset) = page.image,
           Double(asset.info.orientedWidth) >= Self.panoramaAspect * Double(asset.info.orientedHeight) {
            panorama(page, asset, ctx)
            return
        }
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
            ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: frame, cornerRadius: corners(ctx),
                                       shadow: asset.info.hasAlpha ? nil : shadow(ctx),
                                       altText: AltText.first(photo.caption, photo.scene))), to: index)
            if let subject = page.subject {
                ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: fit.rawValue,
                                                         visible: frame.intersection(ctx.pageRect)))
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

    func corners(_ ctx: LayoutContext) -> Double { ctx.book.profile == nil ? ctx.tokens.sizing.cornerRadius : 0 }
    func shadow(_ ctx: LayoutContext) -> Shadow? { ctx.book.profile == nil ? ctx.tokens.sizing.shadow : nil }

    /// The panorama across the text area's width at the head of the page, its caption under it,
    /// and the room below left for the text that follows.
    private func panorama(_ page: ResolvedPage, _ asset: ImageAsset, _ ctx: LayoutContext) {
        let index = ctx.addPage(.photo, source: page.index)
        let content = ctx.contentRect(for: ctx.pages[index].number)
        let typo = ctx.tokens.typography
        let height = content.width * Double(asset.info.orientedHeight) / Double(asset.info.orientedWidth)
        let frame = Rect(x: content.x, y: content.y, width: content.width, height: min(height, content.height * 0.6))
        let placed = SubjectCrop.place(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight),
                                       in: frame, subject: page.subject, fit: .cover)
        ctx.append(.image(ImageBox(asset: asset, frame: placed.frame, clip: frame, cornerRadius: corners(ctx),
                                   shadow: asset.info.hasAlpha ? nil : shadow(ctx),
                                   altText: AltText.first(photo.caption, photo.scene))), to: index)
        if let subject = page.subject {
            ctx.pages[index].art.append(ArtPlacement(asset: asset, subject: subject, placement: placed, fit: PictureFit.cover.rawValue,
                                                     visible: frame.intersection(ctx.pageRect)))
        }
        var y = frame.maxY
        if let text = photo.caption.flatMap({ $0.isEmpty ? nil : $0 }) {
            let caption = ctx.setText(text, role: typo.caption, width: content.width)
            y += typo.caption.size
            ctx.append(.text(ctx.textBox(caption, x: content.x, y: y, width: content.width, color: ctx.palette.muted,
                                         structure: .caption)), to: index)
            y += caption.height
        }
        // The next text page starts here; a page that is not text leaves the panorama its page.
        ctx.openingRoom = (index: index, top: y + typo.body.size * typo.body.lineHeight * 1.5)
    }
}
