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
        var worst = backing.alpha >= 1 ? ratio(text, solid) : .infinity
        guard backing.alpha < 1, let t = thumbnail else { return ratio(text, solid) }
        let cw = 1 / Double(t.width), ch = 1 / Double(t.height)
        for cy in 0..<t.height {
            for cx in 0..<t.width {
                let cell = UnitRect(x: Double(cx) * cw, y: Double(cy) * ch, width: cw, height: ch)
                guard cell.overlap(area) > 0 else { continue }
                let i = cy * t.width + cx
                let art = Color(red: Double(t.red[i]), green: Double(t.green[i]), blue: Double(t.blue[i]))
                worst = min(worst, ratio(text, art.mixed(with: solid, backing.alpha)))
            }
        }
        return worst.isFinite ? worst : ratio(text, solid)
    }

    /// The least opacity, from `backing`'s own up, at which the text reaches `target` everywhere
    /// over the picture; fully opaque when nothing less will do.
    static func opacity(text: Color, backing: Color, over area: UnitRect, thumbnail: Thumbnail?, target: Double) -> Double {
        var alpha = backing.alpha
        while alpha < 1, lowest(text: text, backing: backing.withAlpha(alpha), over: area, thumbnail: thumbnail) < target {
            alpha = min(1, alpha + 0.02)
        }
        return alpha
    }
}
