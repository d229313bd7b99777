import Foundation
import CGraphics
import BookLayout

/// Draws a page tree into one PDF: one PDF page per physical page at the trim size, fonts embedded
/// as subsets by cairo, JPEGs passed through, and fixed dates so the same book gives the same bytes.
public enum PDFWriter {
    /// Used when the book carries no `created` date.
    public static let fallbackDate = "2000-01-01T00:00:00Z"

    /// `pages`: physical page numbers to write (all when nil).
    /// `opaque`: draw without transparency (for CMYK print; see `PageDrawer`).
    public static func write(_ tree: PageTree, to url: URL, pages: Set<Int>? = nil, opaque: Bool = false) throws {
        try AtomicOutput.write(to: url) { tmp in
            let media = tree.geometry.mediaSize(trim: tree.trim)
            guard let surface = cairo_pdf_surface_create(tmp.path, media.width, media.height) else {
                throw RenderError("cannot create \(url.path)")
            }
            defer { cairo_surface_destroy(surface) }
            try check(surface, url)
            setMetadata(surface, tree)
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            let drawer = PageDrawer(images: PDFImageSources(), opaque: opaque)
            for page in tree.pages where pages?.contains(page.number) ?? true {
                let origin = tree.geometry.trimOrigin(page: page.number)
                cairo_save(cr)
                cairo_translate(cr, origin.x, origin.y)
                try drawer.draw(page, on: cr)
                cairo_restore(cr)
                cairo_show_page(cr)
            }
            cairo_surface_finish(surface)
            try check(surface, url)
        }
    }

    private static func check(_ surface: OpaquePointer, _ url: URL) throws {
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("writing \(url.path) failed: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    private static func setMetadata(_ surface: OpaquePointer, _ tree: PageTree) {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, tree.title)
        if let author = tree.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "bookrender")
        let date = pdfDate(tree.created)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }

    /// cairo parses "YYYY-MM-DDThh:mm:ss" with a zone; anything else falls back to a fixed date,
    /// never to the clock.
    static func pdfDate(_ created: String?) -> String {
        guard let created, created.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"#, options: .regularExpression) != nil else {
            return fallbackDate
        }
        return String(created.prefix(19)) + "Z"
    }
}
