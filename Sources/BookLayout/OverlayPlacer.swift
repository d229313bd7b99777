import BookConfig
import BookResolve

/// Puts a card of text over a full picture where it hides the least of the subject, and makes
/// its backing opaque enough for the text to keep its contrast over what lies beneath.
enum OverlayPlacer {
    /// A corner card's share of the full width.
    static let cornerShare = 0.6

    struct Choice {
        var position: TextPosition
        var rect: Rect
        /// The share of the subject (box and weight) under the card.
        var covered: Double
    }

    /// Whether a card at `position` spans the width of its area (else it sits in a corner).
    static func spansWidth(_ position: TextPosition) -> Bool {
        position == .top || position == .bottom || position == .middle
    }

    /// A `width` × `height` card at `position` in `area`.
    static func rect(_ position: TextPosition, width: Double, height: Double, in area: Rect) -> Rect {
        let x: Double
        switch position {
        case .topRight, .bottomRight, .right: x = area.maxX - width
        case .topLeft, .bottomLeft, .left: x = area.x
        default: x = area.x + (area.width - width) / 2
        }
        let y: Double
        switch position {
        case .top, .topLeft, .topRight: y = area.y
        case .bottom, .bottomLeft, .bottomRight: y = area.maxY - height
        default: y = area.y + (area.height - height) / 2
        }
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// The candidate whose card (`card(position)`) covers the least of the subject of the picture
    /// drawn at `frame`; the first candidate when there is no picture or the scores tie.
    static func choose(_ candidates: [TextPosition], subject: PictureSubject?, frame: Rect?, card: (TextPosition) -> Rect) -> Choice {
        var best: Choice?
        for position in candidates {
            let r = card(position)
            var covered = 0.0
            if let subject, let frame { covered = ArtScore.hidden(of: subject, under: SubjectCrop.unit(r, in: frame)) }
            if best == nil || covered < best!.covered - ArtScore.tie { best = Choice(position: position, rect: r, covered: covered) }
        }
        return best!
    }

    /// The backing and text colours for a card over the picture, the backing as opaque as the
    /// contrast needs (never less than the theme's own); and the contrast reached.
    static func backing(_ settings: TextPlacementSettings?, over r: Rect, frame: Rect?, subject: PictureSubject?,
                        palette: Palette, cardAlpha: Double) -> (backing: Color, text: Color, contrast: Double) {
        let scrim = settings?.backing == "scrim"
        let text = scrim ? palette.background : palette.ink
        var backing = scrim ? palette.ink.withAlpha(0.55) : palette.background.withAlpha(cardAlpha)
        let target = settings?.minContrast ?? TextPlacementSettings.defaultMinContrast
        let area = frame.map { SubjectCrop.unit(r, in: $0) } ?? .whole
        let thumbnail = frame == nil ? nil : subject?.thumbnail
        backing.alpha = TextContrast.opacity(text: text, backing: backing, over: area, thumbnail: thumbnail, target: target)
        return (backing, text, TextContrast.lowest(text: text, backing: backing, over: area, thumbnail: thumbnail))
    }
}
