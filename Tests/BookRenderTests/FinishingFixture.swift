import Foundation
import CGraphics
import BookRender
import BookTestSupport

/// PDFs for the finishing tests, written by cairo as bookrender's own PDFs are.
enum FinishingFixture {
    struct PageSpec {
        var background: (Double, Double, Double)
        /// Draw a half-transparent panel and a soft-masked PNG (PDF/X-1a must flatten them).
        var transparency = false
    }

    /// A PDF of `pages` pages of `width` × `height` points with a full-bleed background, black and
    /// coloured text, a JPEG embedded through cairo's mime data and an opaque PNG.
    static func cairoPDF(at url: URL, width: Double = 450, height: Double = 666, pages: [PageSpec],
                         jpeg: Data, png: URL, alphaPNG: URL? = nil, date: String = "2024-01-01T00:00:00Z") throws {
        guard let surface = cairo_pdf_surface_create(url.path, width, height) else { throw ToolError("cairo refused \(url.path)") }
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "Fixture")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }

        let photo = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 96, 64)!
        defer { cairo_surface_destroy(photo) }
        let copy = malloc(jpeg.count)!
        jpeg.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, jpeg.count) }
        cairo_surface_set_mime_data(photo, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), free, copy)
        let picture = cairo_image_surface_create_from_png(png.path)!
        defer { cairo_surface_destroy(picture) }
        let alpha = alphaPNG.map { cairo_image_surface_create_from_png($0.path)! }
        defer { alpha.map { cairo_surface_destroy($0) } }

        for (i, spec) in pages.enumerated() {
            cairo_set_source_rgb(cr, spec.background.0, spec.background.1, spec.background.2)
            cairo_paint(cr)
            // The deepest colours an RGB file can ask for: pure black and a dark brown.
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_rectangle(cr, 40, 40, 120, 60); cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.2, 0.1, 0.1)
            cairo_rectangle(cr, 170, 40, 120, 60); cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.8, 0.2, 0.13)
            cairo_rectangle(cr, 300, 40, 100, 60); cairo_fill(cr)

            cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, 24)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_move_to(cr, 50, 160)
            cairo_show_text(cr, "Page \(i + 1): the quick brown fox")

            cairo_save(cr)
            cairo_translate(cr, 50, 200)
            cairo_scale(cr, 2, 2)
            cairo_set_source_surface(cr, photo, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)

            cairo_save(cr)
            cairo_translate(cr, 260, 200)
            cairo_set_source_surface(cr, picture, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)

            if spec.transparency {
                cairo_set_source_rgba(cr, 0.1, 0.3, 0.8, 0.5)
                cairo_rectangle(cr, 30, 300, 300, 120); cairo_fill(cr)
                if let alpha {
                    cairo_set_source_surface(cr, alpha, 200, 420)
                    cairo_paint(cr)
                }
            }
            cairo_show_page(cr)
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw ToolError("cairo: \(String(cString: cairo_status_to_string(status)))") }
    }

    /// One page of 540 × 540 pt filled with a 1024 × 1024 PNG of 1M colours of the RGB cube:
    /// 16 tiles of blue (0, 17 … 255), each with every red across and every green down.
    static func rgbCubePDF(at url: URL) throws {
        var ppm = Data("P6\n1024 1024\n255\n".utf8)
        ppm.reserveCapacity(ppm.count + 1024 * 1024 * 3)
        for y in 0..<1024 {
            for x in 0..<1024 {
                ppm.append(contentsOf: [UInt8(x % 256), UInt8(y % 256), UInt8((y / 256 * 4 + x / 256) * 17)])
            }
        }
        let dir = url.deletingLastPathComponent()
        let ppmURL = dir.appendingPathComponent("cube.ppm"), pngURL = dir.appendingPathComponent("cube.png")
        try ppm.write(to: ppmURL)
        let converted = try run("convert", [ppmURL.path, "PNG24:" + pngURL.path])
        guard converted.status == 0 else { throw ToolError("convert: \(converted.stderr)") }
        guard let surface = cairo_pdf_surface_create(url.path, 540, 540) else { throw ToolError("cairo refused \(url.path)") }
        let cr = cairo_create(surface)!
        let image = cairo_image_surface_create_from_png(pngURL.path)!
        cairo_scale(cr, 540.0 / 1024, 540.0 / 1024)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        cairo_surface_destroy(image)
    }

    /// A folder with the images `cairoPDF` needs: a baseline RGB JPEG, an opaque PNG, a PNG with alpha.
    static func images(in dir: URL) throws -> (jpeg: Data, png: URL, alphaPNG: URL) {
        let jpeg = try TestImages.gradientJPEG(width: 96, height: 64)
        let png = dir.appendingPathComponent("opaque.png")
        try TestImages.convert(["-size", "120x80", "gradient:#102040-#F0C020"], output: "PNG24:out.png").write(to: png)
        let alpha = dir.appendingPathComponent("alpha.png")
        try TestImages.convert(["-size", "100x100", "xc:none", "-fill", "#CC332280", "-draw", "circle 50,50 50,10"]).write(to: alpha)
        return (jpeg, png, alpha)
    }
}
