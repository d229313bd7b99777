import BookConfig
import BookResolve

/// A page of the book's own design where one must stand so that the next entry starts on its side
/// (a spread on a left page) and no page of the story can move to make room: the main character's
/// picture as a small vignette at the optical centre, or, without one, the theme's ornament. A
/// reader turning to it meets the hero, not an empty page.
enum DesignedPage {
    /// The vignette's share of the text area's width.
    static let vignetteShare = 0.42

    static func add(for source: Int, why: String, _ ctx: LayoutContext) {
        let index = ctx.addPage(.designed, source: nil)
        ctx.pages[index].insertedFor = source
        let number = ctx.pages[index].number
        let content = ctx.contentRect(for: number)
        if let asset = ctx.book.mainCharacterImage {
            let side = content.width * vignetteShare
            let box = Rect(x: content.x + (content.width - side) / 2,
                           y: content.y + (content.height - side) * TextPageTemplate.verticalShare("optical"), width: side, height: side)
            let frame = ImageFit.contain(width: Double(asset.info.orientedWidth), height: Double(asset.info.orientedHeight), in: box)
            ctx.append(.image(ImageBox(asset: asset, frame: frame, clip: frame, altText: nil)), to: index)
        } else {
            ornament(centreX: content.x + content.width / 2, y: content.y + content.height * TextPageTemplate.verticalShare("optical"),
                     on: index, ctx)
        }
        ctx.findings.append(Finding(.warning, .other, sourcePage: source, physicalPages: [number],
                                    "designed page (the book's vignette) inserted " + why))
    }

    /// Three dots on a short rule, in the accent colour, the middle one larger.
    static func ornament(centreX x: Double, y: Double, on index: Int, _ ctx: LayoutContext) {
        let size = ctx.tokens.typography.body.size
        let accent = ctx.palette.accent
        ctx.append(.rule(Rule(from: (x - 3 * size, y), to: (x + 3 * size, y), width: 0.8, color: accent)), to: index)
        for dx in [-1.4 * size, 0, 1.4 * size] {
            let d = size * (dx == 0 ? 0.42 : 0.28)
            ctx.append(.fill(Fill(rect: Rect(x: x + dx - d, y: y - d, width: 2 * d, height: 2 * d), color: ctx.palette.background)),
                       to: index)
            ctx.append(.fill(Fill(rect: Rect(x: x + dx - d * 0.7, y: y - d * 0.7, width: 1.4 * d, height: 1.4 * d), color: accent,
                                  cornerRadius: d * 0.7)), to: index)
        }
    }
}
