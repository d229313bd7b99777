import Foundation
import BookConfig
import BookResolve

/// The contrast of text set on a translucent backing over a picture, cell by cell of the
/// picture's thumbnail, and how opaque the backing must be for the text to stay legible.
enum TextContrast {
    /// WCAG's contrast ratio, 1…21.
    static func ratio(_ a: Color, _ b: Color) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    static func luminance(_ c: Color) -> Double {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
    }

    /// The lowest contrast of `text` over `backing` (its alpha as given) laid on the cells of the
    /// picture under `area`; against the backing alone when nothing of the picture is there.
    static func lowest(text: Color, backing: Color, over area: UnitRect, thumbnail: Thumbnail?) -> Double {
        let solid = backing.withAlpha(1)
        guard backing.alpha < 1, let t = thumbnail else { return ratio(text, solid) }
        return lowest(text: text, solid: solid, alpha: backing.alpha, over: art(under: area, in: t))
    }

    private static func lowest(text: Color, solid: Color, alpha: Double, over art: [Color]) -> Double {
        var worst = Double.infinity
        for colour in art { worst = min(worst, ratio(text, colour.mixed(with: solid, alpha))) }
        return worst.isFinite ? worst : ratio(text, solid)
    }

    /// The colours of the thumbnail's cells that `area` overlaps, looked at only within its bounds:
    /// a page's many places and veils are tried over the same few cells.
    static func art(under area: UnitRect, in t: Thumbnail) -> [Color] {
        let cw = 1 / Double(t.width), ch = 1 / Double(t.height)
        let x0 = max(0, Int((area.x * Double(t.width)).rounded(.down))), x1 = min(t.width, Int((area.maxX * Double(t.width)).rounded(.up)))
        let y0 = max(0, Int((area.y * Double(t.height)).rounded(.down))), y1 = min(t.height, Int((area.maxY * Double(t.height)).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return [] }
        var out: [Color] = []
        for cy in y0..<y1 {
            for cx in x0..<x1 {
                let cell = UnitRect(x: Double(cx) * cw, y: Double(cy) * ch, width: cw, height: ch)
                guard cell.overlap(area) > 0 else { continue }
                let i = cy * t.width + cx
                out.append(Color(red: Double(t.red[i]), green: Double(t.green[i]), blue: Double(t.blue[i])))
            }
        }
        return out
    }

    /// The least opacity, from `backing`'s own up, at which the text reaches `target` everywhere
    /// over the picture; fully opaque when nothing less will do.
    static func opacity(text: Color, backing: Color, over area: UnitRect, thumbnail: Thumbnail?, target: Double) -> Double {
        var alpha = backing.alpha
        let solid = backing.withAlpha(1)
        guard let t = thumbnail else {
            return alpha >= 1 || ratio(text, solid) >= target ? alpha : 1
        }
        let cells = art(under: area, in: t)
        while alpha < 1, lowest(text: text, solid: solid, alpha: alpha, over: cells) < target {
            alpha = min(1, alpha + 0.02)
        }
        return alpha
    }
}
