import Foundation
import CGraphics
import BookLayout
import BookBase

/// A book's first pages side by side in one PNG, small, as a designer lays out proofs to compare
/// looks: the pages in a row (wrapping after `columns`) on a neutral grey, each with a thin shadow
/// line so white paper stands off the ground. Drawn straight from the page tree, as page PNGs are.
public struct ContactSheet: Sendable {
    /// Pixels per inch of each page.
    public var dpi: Double
    public var columns: Int

    public init(dpi: Double = 40, columns: Int = 6) {
        self.dpi = dpi; self.columns = max(1, columns)
    }

    /// Writes `tree`'s first `count` pages to `url` (atomically); the number of pages on it.
    @discardableResult
    public func write(_ tree: PageTree, pages count: Int, to url: URL) throws -> Int {
        let pages = Array(tree.pages.prefix(max(1, count)))
        let drawer = PageDrawer(images: RasterImageSources(dpi: dpi), text: .glyphRuns)
        let size = (width: Int((tree.trim.width * dpi / 72).rounded()), height: Int((tree.trim.height * dpi / 72).rounded()))
        let gap = max(4, Int(dpi / 5)), across = min(columns, pages.count)
        let rows = (pages.count + across - 1) / across
        let width = gap + across * (size.width + gap), height = gap + rows * (size.height + gap)
        let sheet = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(sheet) }
        let cr = cairo_create(sheet)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 0.82, 0.82, 0.8)
        cairo_paint(cr)
        for (i, page) in pages.enumerated() {
            let x = Double(gap + (i % across) * (size.width + gap)), y = Double(gap + (i / across) * (size.height + gap))
            let surface = try PNGPageWriter.drawn(page, drawer: drawer, size: size, dpi: dpi)
            defer { cairo_surface_destroy(surface) }
            cairo_set_source_rgb(cr, 0.55, 0.55, 0.53)
            cairo_rectangle(cr, x + 1, y + 1, Double(size.width), Double(size.height))
            cairo_fill(cr)
            cairo_set_source_surface(cr, surface, x, y)
            cairo_paint(cr)
        }
        cairo_surface_flush(sheet)
        try AtomicOutput.write(to: url) { tmp in try PNGWriter.write(surface: sheet, to: tmp.path, as: url.path, dpi: dpi) }
        return pages.count
    }
}
