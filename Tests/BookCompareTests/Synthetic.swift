import Foundation
import CGraphics
import BookCompare
import BookLayout
import BookTestSupport
import BookRenderKit

/// Pages drawn with cairo for the tests: paper, a line of text, filled areas, a diagonal stroke.
/// Hinting and metric rounding are off so a sub-pixel offset really moves the anti-aliasing.
enum Synthetic {
    static let width = 400
    static let height = 200
    static let textLine = "Pip looked up."
    /// The band the text line is drawn in (the panel and the stroke are below it).
    static let textBand = PixelRect(x: 0, y: 0, width: width, height: 95)
    /// Where the text's baseline starts and how tall its glyphs are, for bounding-box checks.
    static let textOrigin = (x: 20.0, y: 60.0)
    // Body text at print resolution (12–18 pt at 150 dpi is 25–37 px): glyph features are several
    // pixels wide, as pixelmatch's anti-aliasing detector needs (see docs/compare.md).
    static let textSize = 40.0
    static let paper = (r: 0xF6, g: 0xF1, b: 0xE8)
    static let ink = (r: 0x2F, g: 0x2A, b: 0x25)
    static let orange = (r: 0xE0, g: 0x70, b: 0x3A)
    static let blue = (r: 0x33, g: 0x66, b: 0xAA)
    static let panel = PixelRect(x: 40, y: 110, width: 120, height: 60)

    struct Page {
        var textOffset = (x: 0.0, y: 0.0)
        var lineOffset = (x: 0.0, y: 0.0)
        var fill = orange
        var text = textLine
        var size = textSize
    }

    static func render(_ page: Page = Page(), width: Int = width, height: Int = height) -> RGBAImage {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        draw(page, on: cr)
        return try! RGBAImage(cairoSurface: surface)
    }

    /// Draws a page in points onto any cairo context (an image surface, or a PDF page).
    static func draw(_ page: Page, on cr: OpaquePointer) {
        cairo_set_source_rgb(cr, Double(paper.r) / 255, Double(paper.g) / 255, Double(paper.b) / 255)
        cairo_paint(cr)

        // A named font file through Pango, not cairo's toy API: that asks fontconfig's current
        // configuration, which other tests in this process replace, so the glyphs (and these
        // tests' outcome) would depend on test order. DejaVu Sans Bold (fonts-dejavu-core) has the
        // broad strokes pixelmatch's anti-aliasing detector is built for.
        let typesetter = try! TestFonts.typesetter(extraFonts: [URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu")])
        let layout = typesetter.layout(page.text, style: TextStyle(family: "DejaVu Sans", size: page.size, weight: 700),
                                       width: 0, alignment: .start, hyphenate: false)
        cairo_set_source_rgb(cr, Double(ink.r) / 255, Double(ink.g) / 255, Double(ink.b) / 255)
        let baseline = layout.lines.first?.baseline ?? 0
        cairo_move_to(cr, textOrigin.x + page.textOffset.x, textOrigin.y - baseline + page.textOffset.y)
        // As outlines: cairo 1.16's image backend rounds glyph positions to whole pixels, so
        // shown text would jump a pixel instead of moving its anti-aliasing by a fraction.
        pango_cairo_layout_path(cr, layout.blocks[0].layout)  // one paragraph
        cairo_fill(cr)

        cairo_set_source_rgb(cr, Double(page.fill.r) / 255, Double(page.fill.g) / 255, Double(page.fill.b) / 255)
        cairo_rectangle(cr, Double(panel.x), Double(panel.y), Double(panel.width), Double(panel.height))
        cairo_fill(cr)

        cairo_set_source_rgb(cr, 0x7C / 255.0, 0x5C / 255.0, 0x3A / 255.0)
        cairo_set_line_width(cr, 3)
        cairo_move_to(cr, 190 + page.lineOffset.x, 100 + page.lineOffset.y)
        cairo_line_to(cr, 300 + page.lineOffset.x, 185 + page.lineOffset.y)
        cairo_stroke(cr)
    }

    /// A PDF of `pages` pages of `width` × `height` pt, written with cairo.
    static func writePDF(_ pages: [Page], to url: URL) {
        let surface = cairo_pdf_surface_create(url.path, Double(width), Double(height))!
        let cr = cairo_create(surface)!
        for page in pages {
            draw(page, on: cr)
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        precondition(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "PDF not written")
        cairo_surface_destroy(surface)
    }

    /// Pixels darker than the paper: the test's drawing really happened.
    static func inkPixels(_ image: RGBAImage, in rect: PixelRect? = nil) -> Int {
        let r = rect ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        var count = 0
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) where image.pixel(x: x, y: y).red < 0x80 { count += 1 }
        }
        return count
    }

    /// The smallest rectangle holding every pixel of `rect` that is not paper.
    static func inkBox(_ image: RGBAImage, in rect: PixelRect) -> PixelRect? {
        let paper = image.pixel(x: 0, y: 0)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) where image.pixel(x: x, y: y) != paper {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// 1-pixel anti-aliasing noise: every grey edge pixel of the text (neither ink nor paper)
    /// given more or less coverage, alternately, as another rasterizer might: its colour moves
    /// `amount` levels towards the ink or the paper, never past either.
    static func jitterTextEdges(_ image: RGBAImage, amount: Int = 40) -> (RGBAImage, Int) {
        var out = image
        var touched = 0
        for y in textBand.y..<(textBand.y + textBand.height) {
            for x in textBand.x..<(textBand.x + textBand.width) {
                let p = image.pixel(x: x, y: y)
                guard p.red > ink.r + 16 && p.red < paper.r - 16 else { continue }
                let delta = touched % 2 == 0 ? amount : -amount
                func shift(_ c: UInt8, _ dark: Int, _ light: Int) -> UInt8 { UInt8(max(dark, min(light, Int(c) + delta))) }
                out.setPixel(x: x, y: y, red: shift(p.red, ink.r, paper.r), green: shift(p.green, ink.g, paper.g),
                             blue: shift(p.blue, ink.b, paper.b))
                touched += 1
            }
        }
        return (out, touched)
    }
}
