import Foundation
import CGraphics
import BookLayout

/// A spot of a page drawn as one opaque picture, for a printer that takes no transparency: where
/// something translucent (a colour glyph, a picture with an alpha channel) lies over more than one
/// colour, the spot is drawn as it looks (everything under it and the thing itself, on white
/// paper) at `resolution` and placed where it was. The rest of the page stays as it is drawn: its
/// text text, its vectors vectors, its JPEGs passed through; no other program flattens anything.
enum TransparencyPatch {
    /// Pixels per inch: the printers' picture resolution twice over, so glyphs in it stay sharp.
    static let resolution = 600.0

    /// Draws `page`'s items up to and including `index`, within `area` (page coordinates), as
    /// one opaque image onto `cr`.
    static func paint(_ page: PageNode, through index: Int, in area: Rect, on cr: OpaquePointer) throws {
        let scale = resolution / 72
        // On the pixel grid of the page, so neighbouring patches meet without a seam.
        let x0 = (area.x * scale).rounded(.down) / scale, y0 = (area.y * scale).rounded(.down) / scale
        let width = Int(((area.maxX - x0) * scale).rounded(.up)), height = Int(((area.maxY - y0) * scale).rounded(.up))
        guard width > 0, height > 0, width <= 32767, height <= 32767 else { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cannot make a \(width) × \(height) picture to draw page \(page.number) without transparency")
        }
        let patch = cairo_create(surface)!
        cairo_set_source_rgb(patch, 1, 1, 1)
        cairo_paint(patch)
        cairo_scale(patch, scale, scale)
        cairo_translate(patch, -x0, -y0)
        cairo_rectangle(patch, x0, y0, Double(width) / scale, Double(height) / scale)
        cairo_clip(patch)
        let raster = PageDrawer(images: RasterImageSources(dpi: resolution), text: .glyphRunsMadeHere)
        do {
            try raster.draw(page, items: 0..<(index + 1), on: patch)
        } catch {
            cairo_destroy(patch)
            throw error
        }
        cairo_destroy(patch)
        cairo_surface_flush(surface)

        cairo_save(cr)
        cairo_rectangle(cr, x0, y0, Double(width) / scale, Double(height) / scale)
        cairo_clip(cr)
        cairo_translate(cr, x0, y0)
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
