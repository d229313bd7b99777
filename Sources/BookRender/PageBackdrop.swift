import BookConfig
import BookLayout

/// What lies under each spot of a page as it is drawn, as far as it is one flat colour: the paper,
/// or an opaque square-cornered fill that covers the spot with nothing drawn over it since.
/// Something translucent drawn where the backdrop is known can be mixed with it and painted
/// opaque, which is what a printer without transparency needs. Where it is not known (over a
/// picture, text or a rounded card), a translucent fill is painted as it would show over the paper
/// and a shadow is left out, so the picture beneath stays the original; only what has no opaque
/// equivalent (colour emoji, pictures with alpha) is drawn as it is and its page flattened afterwards.
struct PageBackdrop {
    let paper: Color
    /// What was drawn, in order: its extent and its colour when it is flat and opaque.
    private var drawn: [(extent: Rect, flat: Color?)] = []

    init(paper: Color = .white) { self.paper = paper }

    /// The one colour under all of `rect`, nil when there is more than one or it is not known.
    func color(under rect: Rect) -> Color? {
        for item in drawn.reversed() where item.extent.intersects(rect) {
            guard let flat = item.flat, item.extent.contains(rect) else { return nil }
            return flat
        }
        return paper
    }

    /// Records something drawn over `extent`; `flat`: its colour when it covers all of `extent` with it.
    mutating func add(_ extent: Rect, flat: Color? = nil) {
        drawn.append((extent, flat.flatMap { $0.alpha >= 1 ? $0 : nil }))
    }

    /// Where `item` may leave ink: its box, and for strokes and glyphs a little around it.
    static func extent(of item: PageItem) -> Rect {
        switch item {
        case .fill(let f): return f.rect
        case .image(let i): return i.clip
        case .text(let t): return t.frame.inset(by: -glyphOverhang)
        case .rule(let r):
            let pad = r.width / 2 + 1
            return Rect(x: min(r.from.x, r.to.x) - pad, y: min(r.from.y, r.to.y) - pad,
                        width: abs(r.to.x - r.from.x) + 2 * pad, height: abs(r.to.y - r.from.y) + 2 * pad)
        case .qr(let q): return q.frame
        case .placeholderArt(let p): return p.rect
        case .registration(let m):
            let reach = 1.5 * m.radius + 1
            return Rect(x: m.center.x - reach, y: m.center.y - reach, width: 2 * reach, height: 2 * reach)
        }
    }

    /// How far a glyph's ink may reach past its text box (italic overhang, accents, descenders).
    static let glyphOverhang = 6.0
}

extension Rect {
    func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}
