import Foundation
import CGraphics
import BookLayout

/// Draws a page tree into one PDF: one PDF page per physical page at the trim size, fonts embedded
/// as subsets by cairo, JPEGs passed through, and fixed dates so the same book gives the same bytes.
public enum PDFWriter {
    /// Used when the book carries no `created` date.
    public static let fallbackDate = "2000-01-01T00:00:00Z"

    /// cairo 1.16 keeps every image it has drawn until its PDF is finished, so a long book is drawn
    /// in runs of this many pages, each its own cairo document, and the runs are joined by qpdf:
    /// memory then stays flat in page count. (A picture repeated in two runs is stored twice.)
    public static let pagesPerRun = 32

    /// `pages`: physical page numbers to write (all when nil).
    /// `opaque`: draw without transparency (for CMYK print; see `PageDrawer`).
    public static func write(_ tree: PageTree, to url: URL, pages: Set<Int>? = nil, opaque: Bool = false) throws {
        let selected = tree.pages.filter { pages?.contains($0.number) ?? true }
        let runs = stride(from: 0, to: max(selected.count, 1), by: pagesPerRun).map {
            Array(selected[$0..<min($0 + pagesPerRun, selected.count)])
        }
        try AtomicOutput.write(to: url) { tmp in
            if runs.count == 1 {
                try drawRun(runs[0], of: tree, to: tmp, opaque: opaque)
                return
            }
            let parts = runs.indices.map { tmp.appendingPathExtension("run\($0)") }
            defer { parts.forEach { unlink($0.path) } }
            for (run, part) in zip(runs, parts) { try drawRun(run, of: tree, to: part, opaque: opaque) }
            let first = try QPDFDocument(reading: parts[0])
            let rest = try parts.dropFirst().map { try QPDFDocument(reading: $0) }
            for doc in rest { try first.appendPages(of: doc) }
            try first.write(to: tmp)
        }
    }

    private static func drawRun(_ pages: [PageNode], of tree: PageTree, to file: URL, opaque: Bool) throws {
        let media = tree.geometry.mediaSize(trim: tree.trim)
        guard let surface = cairo_pdf_surface_create(file.path, media.width, media.height) else {
            throw RenderError("cannot create \(file.path)")
        }
        defer { cairo_surface_destroy(surface) }
        try check(surface, file)
        setMetadata(surface, tree)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        let drawer = PageDrawer(images: PDFImageSources(), opaque: opaque)
        for page in pages {
            let origin = tree.geometry.trimOrigin(page: page.number)
            cairo_save(cr)
            cairo_translate(cr, origin.x, origin.y)
            try drawer.draw(page, on: cr)
            cairo_restore(cr)
            cairo_show_page(cr)
        }
        cairo_surface_finish(surface)
        try check(surface, file)
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
