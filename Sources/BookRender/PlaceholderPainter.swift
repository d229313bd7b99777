import Foundation
import CGraphics
import BookLayout

/// Paints the placeholder motif: a dashed frame on the wash, a sun and two hills in the theme's colours.
enum PlaceholderPainter {
    /// `opaque`: translucent shapes are mixed with the wash instead (see `CairoPaths.setColor`).
    static func paint(_ art: PlaceholderArt, on cr: OpaquePointer, opaque: Bool = false) {
        let backdrop = opaque ? art.wash : nil
        let outer = art.rect
        let inset = outer.inset(by: 6)
        let insetRadius = max(0, art.cornerRadius - 6)
        cairo_save(cr)
        CairoPaths.roundedRect(cr, outer, radius: art.cornerRadius)
        CairoPaths.setColor(cr, art.wash)
        cairo_fill(cr)
        // The motif stays inside the dashed frame: art past it reads as a layout fault.
        CairoPaths.roundedRect(cr, inset, radius: insetRadius)
        cairo_clip(cr)
        let r = inset

        // Motif in the upper 60 %: hills along its foot, a sun above the right hill.
        let m = Rect(x: r.x, y: r.y + r.height * 0.08, width: r.width, height: r.height * 0.52)
        let s = min(m.width, m.height)
        cairo_arc(cr, m.x + m.width * 0.66, m.y + m.height * 0.32, s * 0.11, 0, 2 * Double.pi)
        CairoPaths.setColor(cr, art.accent, alpha: 0.8, over: backdrop)
        cairo_fill(cr)

        cairo_move_to(cr, r.x, m.maxY)
        cairo_curve_to(cr, m.x + m.width * 0.2, m.y + m.height * 0.45, m.x + m.width * 0.45, m.y + m.height * 0.5, m.x + m.width * 0.6, m.maxY)
        cairo_close_path(cr)
        CairoPaths.setColor(cr, art.ink, alpha: 0.35, over: backdrop)
        cairo_fill(cr)
        cairo_move_to(cr, m.x + m.width * 0.3, m.maxY)
        cairo_curve_to(cr, m.x + m.width * 0.55, m.y + m.height * 0.55, m.x + m.width * 0.85, m.y + m.height * 0.6, r.maxX, m.maxY)
        cairo_close_path(cr)
        CairoPaths.setColor(cr, art.accent, alpha: 0.45, over: backdrop)
        cairo_fill(cr)
        cairo_rectangle(cr, r.x, m.maxY - 0.5, r.width, 1.5)
        CairoPaths.setColor(cr, art.ink, alpha: 0.35, over: backdrop)
        cairo_fill(cr)
        cairo_restore(cr)

        // The dashed edge says "not final" at a glance, on screen and on a proof.
        cairo_save(cr)
        CairoPaths.roundedRect(cr, inset, radius: insetRadius)
        var dashes: [Double] = [7, 5]
        cairo_set_dash(cr, &dashes, 2, 0)
        cairo_set_line_width(cr, 1.5)
        CairoPaths.setColor(cr, art.accent, alpha: 0.9, over: backdrop)
        cairo_stroke(cr)
        cairo_restore(cr)
    }
}
