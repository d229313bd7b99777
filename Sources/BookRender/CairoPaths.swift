import Foundation
import CGraphics
import BookConfig
import BookLayout

/// Path and paint helpers shared by everything the drawer paints.
enum CairoPaths {
    static func roundedRect(_ cr: OpaquePointer, _ r: Rect, radius: Double) {
        let rad = min(radius, r.width / 2, r.height / 2)
        guard rad > 0 else {
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            return
        }
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - rad, r.y + rad, rad, -Double.pi / 2, 0)
        cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, Double.pi / 2)
        cairo_arc(cr, r.x + rad, r.maxY - rad, rad, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.x + rad, r.y + rad, rad, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// With `over`, a translucent colour is mixed with that backdrop and painted opaque: for CMYK
    /// print, where any transparency makes Ghostscript flatten the whole page into one image.
    static func setColor(_ cr: OpaquePointer, _ c: Color, alpha: Double = 1, over backdrop: Color? = nil) {
        if let backdrop, c.alpha * alpha < 1 {
            let mixed = backdrop.mixed(with: c.withAlpha(1), c.alpha * alpha)
            cairo_set_source_rgb(cr, mixed.red, mixed.green, mixed.blue)
            return
        }
        if c.alpha * alpha >= 1 {
            cairo_set_source_rgb(cr, c.red, c.green, c.blue)
        } else {
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
        }
    }

    /// A soft shadow without a blur filter (cairo has none): stacked translucent rounded rects that
    /// grow by the shadow radius, so the edge fades out over `radius` points.
    ///
    /// With `over`, each step is painted opaque in the colour the translucent steps would have
    /// made over that flat backdrop so far: the steps nest, so the result is the same without
    /// transparency.
    static func shadow(_ cr: OpaquePointer, under r: Rect, cornerRadius: Double, shadow: Shadow, over backdrop: Color? = nil) {
        guard shadow.opacity > 0, shadow.radius > 0 else { return }
        let steps = 8
        let alpha = shadow.opacity / Double(steps)
        cairo_save(cr)
        for i in 0..<steps {
            let grow = shadow.radius * (1 - Double(i) / Double(steps)) / 2
            let rect = Rect(x: r.x - grow, y: r.y + shadow.y - grow, width: r.width + 2 * grow, height: r.height + 2 * grow)
            roundedRect(cr, rect, radius: cornerRadius + grow)
            if let backdrop {
                let kept = pow(1 - alpha, Double(i + 1))
                cairo_set_source_rgb(cr, backdrop.red * kept, backdrop.green * kept, backdrop.blue * kept)
            } else {
                cairo_set_source_rgba(cr, 0, 0, 0, alpha)
            }
            cairo_fill(cr)
        }
        cairo_restore(cr)
    }

    /// Where `shadow` may paint around `r`.
    static func shadowExtent(under r: Rect, shadow: Shadow) -> Rect {
        let grow = shadow.radius / 2
        return Rect(x: r.x - grow, y: r.y + shadow.y - grow, width: r.width + 2 * grow, height: r.height + 2 * grow)
    }
}
