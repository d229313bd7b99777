import Foundation
import BookBase
import BookConfig
import BookResolve

/// Where a picture page's words stand on the picture itself, as an art director places them: over
/// a quiet part of the art (sky, ground, a flat wall) that holds none of the subject, in ink or
/// paper colour, whichever reads there. When neither reaches the theme's contrast, a soft veil
/// lifts it, only as strong as it must be; when that would have to be strong, or every place
/// hides the subject, the text does not go over the art (the page's band takes it).
enum QuietPlacer {
    struct Choice {
        var position: TextPosition
        /// The text block, without padding.
        var block: Rect
        var textColor: Color
        /// The veil under the text, when the art alone does not give the contrast.
        var scrim: Fill?
        /// The least contrast of the text against what lies under it.
        var contrast: Double
        /// The share of the subject's weight under the block.
        var covered: Double
        /// How good a place it is (higher is better): the subject it hides, the veil it needs and
        /// the busy art under it, weighed together.
        var score = 0.0
    }

    /// Most of the subject's weight a block may lie over.
    static let maxCovered = 0.04
    /// The strongest veil allowed: beyond it the art is hidden more than a band would hide it.
    static let maxScrimAlpha = 0.78
    /// How much a busy patch (a sun, a tree, a window) under the text counts against a place, per
    /// unit of its busyness, against the subject it hides and a veil.
    static let busyWeight = 0.6
    /// The busiest art words may stand on: past it they would run across a tree or a moon (a
    /// twentieth of the block in colours apart), which no art director lets happen.
    static let maxBusy = 0.5

    /// The best place for `text` over the picture drawn at `frame` inside `area` (the page's text
    /// area), or nil when none is quiet and clear enough. `positions`: the theme's, in its order.
    static func choose(positions: [TextPosition], text: (TextPosition) -> PictureText, area: Rect, frame: Rect,
                       subject: PictureSubject?, settings: TextPlacementSettings, palette: Palette, allowsVeil: Bool,
                       page: Rect, blockHeight minimum: Double = 0, maxBusy: Double = QuietPlacer.maxBusy,
                       clearOfSubject: Bool = false) -> Choice? {
        guard let thumbnail = subject?.thumbnail else { return nil }
        let target = settings.minContrast ?? TextPlacementSettings.defaultMinContrast
        let veils = allowsVeil && settings.backing != "none"
        var best: (choice: Choice, score: Double)?
        for (rank, position) in positions.enumerated() {
            let text = text(position)
            let height = max(text.height, minimum)
            let block = OverlayPlacer.rect(position, width: text.width, height: height, in: area)
            // Words taller than the room they are given would run off the page.
            guard block.y >= area.y - 0.5, block.maxY <= area.maxY + 0.5 else { continue }
            let unit = SubjectCrop.unit(block, in: frame)
            let covered = subject.map { $0.weight(in: unit) } ?? 0
            guard covered <= maxCovered else { continue }
            // Words that must stay clear of the subject (a jacket's title) keep their padding off
            // its box, where a faint part (boots on dark grass) carries little weight.
            if clearOfSubject, let box = subject?.box {
                let padded = SubjectCrop.unit(Rect(x: block.x - text.pad, y: block.y - text.pad, width: block.width + 2 * text.pad,
                                                   height: block.height + 2 * text.pad), in: frame)
                guard padded.overlap(box) == 0 else { continue }
            }
            let busy = busyness(thumbnail, under: unit)
            guard busy <= maxBusy else { continue }
            // Ink or paper, whichever reads better over the art as it is.
            let options = [(palette.ink, palette.background), (palette.background, palette.ink)].map { text, veil in
                (text: text, veil: veil, contrast: TextContrast.lowest(text: text, backing: veil.withAlpha(0), over: unit, thumbnail: thumbnail))
            }
            let clear = options.max { $0.contrast < $1.contrast }!
            var choice = Choice(position: position, block: block, textColor: clear.text, scrim: nil, contrast: clear.contrast,
                                covered: covered)
            var veilCost = 0.0
            if clear.contrast < target {
                guard veils else { continue }
                // The lighter veil that reaches the contrast: under the text that needs the least.
                let needed = options.map { o in
                    (o, TextContrast.opacity(text: o.text, backing: o.veil.withAlpha(0), over: unit, thumbnail: thumbnail, target: target))
                }.min { $0.1 < $1.1 }!
                guard needed.1 <= maxScrimAlpha else { continue }
                let color = needed.0.veil.withAlpha(needed.1)
                choice.textColor = needed.0.text
                choice.contrast = TextContrast.lowest(text: needed.0.text, backing: color, over: unit, thumbnail: thumbnail)
                choice.scrim = veil(under: block, position: position, color: color, page: page, pad: text.pad)
                veilCost = needed.1
            }
            // Hidden subject weighs most, then a veil, then a busy patch; the theme's order breaks ties.
            choice.score = -(covered * 4 + veilCost + busy * busyWeight) - Double(rank) * 0.005
            if best == nil || choice.score > best!.score { best = (choice, choice.score) }
        }
        return best?.choice
    }

    /// How busy the art is under `area` (picture terms): the share of its cells whose colour stands
    /// apart from the area's own (its median colour), so a sun, a tree or a window counts and a sky
    /// that shades slowly does not; scaled so a tenth of the area apart reaches 1. Colours are
    /// compared as the eye sees them (CIELAB): a dark tree against a night sky is as far from it
    /// in RGB as two blues of one sky, and far apart to the eye.
    static func busyness(_ t: Thumbnail, under area: UnitRect) -> Double {
        let x0 = max(0, Int((area.x * Double(t.width)).rounded(.down))), x1 = min(t.width, Int((area.maxX * Double(t.width)).rounded(.up)))
        let y0 = max(0, Int((area.y * Double(t.height)).rounded(.down))), y1 = min(t.height, Int((area.maxY * Double(t.height)).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return 0 }
        let lab = t.lab
        var cells: [CIELab] = []
        cells.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { for x in x0..<x1 { cells.append(lab[y * t.width + x]) } }
        func median(_ channel: (CIELab) -> Float) -> Float {
            var v = cells.map(channel)
            return v.select(v.count / 2)
        }
        let middle = CIELab(l: median { $0.l }, a: median { $0.a }, b: median { $0.b })
        let apart = cells.filter { $0.distance(to: middle) > apartDistance }.count
        return min(1, Double(apart) / Double(cells.count) / 0.1)
    }

    /// How far apart (CIE76 ΔE) a cell's colour must be from its area's to stand out of it: two
    /// shades of one sky stay within it, a tree, a moon or a roof do not.
    static let apartDistance: Float = 20

    /// A soft veil behind a block: across the page from its edge for a block at the head or
    /// foot, fading out a little past the block; a soft oval for a block in a corner.
    static func veil(under block: Rect, position: TextPosition, color: Color, page: Rect, pad: Double) -> Fill {
        let fadeLength = max(pad * 2.5, block.height * 0.6)
        switch position {
        case .top:
            let end = block.maxY + pad + fadeLength
            return Fill(rect: Rect(x: page.x, y: page.y, width: page.width, height: end - page.y), color: color,
                        fade: .linear(from: block.maxY + pad, to: end, vertical: true))
        case .bottom:
            let start = block.y - pad - fadeLength
            return Fill(rect: Rect(x: page.x, y: start, width: page.width, height: page.maxY - start), color: color,
                        fade: .linear(from: block.y - pad, to: start, vertical: true))
        default:
            let rx = block.width / 2 + pad, ry = block.height / 2 + pad
            let centre = (x: block.x + block.width / 2, y: block.y + block.height / 2)
            let rect = Rect(x: centre.x - 2 * rx, y: centre.y - 2 * ry, width: 4 * rx, height: 4 * ry).intersection(page)
            return Fill(rect: rect, color: color, fade: .radial(centerX: centre.x, centerY: centre.y, radiusX: rx, radiusY: ry))
        }
    }
}
