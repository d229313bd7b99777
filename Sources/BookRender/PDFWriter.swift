import Foundation
import CGraphics
import BookLayout

/// Draws a page tree into one PDF: one PDF page per physical page at the trim size, fonts embedded
/// as subsets by cairo, JPEGs passed through, and fixed dates so the same book gives the same bytes.
///
/// Pages stream: cairo writes each page, and the pictures it uses, when the page is shown, and the
/// drawer keeps no picture beyond its page, so memory stays flat however long the book.
public enum PDFWriter {
    /// Used when the book carries no `created` date.
    public static let fallbackDate = "2000-01-01T00:00:00Z"

    /// `pages`: physical page numbers to write (all when nil).
    /// `opaque`: draw without transparency (for CMYK print; see `PageDrawer`).
    public static func write(_ tree: PageTree, to url: URL, pages: Set<Int>? = nil, opaque: Bool = false) throws {
        try AtomicOutput.write(to: url) { tmp in _ = try draw(tree, into: tmp, pages: pages, opaque: opaque, for: url) }
    }

    /// Writes the PDF to `file` (not atomically: for a caller that finishes it in place) and
    /// returns a digest of its content (`ContentHash`), the basis of the document's `/ID`.
    /// Errors name `target`, the PDF `file` will become.
    static func draw(_ tree: PageTree, into file: URL, pages: Set<Int>?, opaque: Bool, for target: URL) throws -> String {
        let selected = tree.pages.filter { pages?.contains($0.number) ?? true }
        let sink = try PDFSink(file, name: target)
        let media = tree.geometry.mediaSize(trim: tree.trim)
        let images = PDFImageSources(sink: sink)
        let drawer = PageDrawer(images: images, opaque: opaque, glyphRuns: true)
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let sink = Unmanaged<PDFSink>.fromOpaque(closure!).takeUnretainedValue()
            return sink.write(data!, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, Unmanaged.passUnretained(sink).toOpaque(), media.width, media.height)!
        defer { cairo_surface_destroy(surface) }
        try check(surface, sink)
        setMetadata(surface, tree)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        for page in selected {
            let origin = tree.geometry.trimOrigin(page: page.number)
            cairo_save(cr)
            cairo_translate(cr, origin.x, origin.y)
            try drawer.draw(page, on: cr)
            cairo_restore(cr)
            cairo_show_page(cr)
            try check(surface, sink)
        }
        cairo_surface_finish(surface)
        try check(surface, sink)
        return try sink.close()
    }

    private static func check(_ surface: OpaquePointer, _ sink: PDFSink) throws {
        if let error = sink.error { throw RenderError("writing \(sink.path) failed: \(error)") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("writing \(sink.path) failed: \(String(cString: cairo_status_to_string(status)))")
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
