import Foundation

/// What an export writes. At least one of `pdf`, `png` and `epub`.
public struct ExportOptions: Sendable {
    /// The PDF to write (replaced atomically: the old file stays until the new one is complete).
    public var pdf: URL?
    /// Page PNGs: one `page-NNN.png` per page, and facing-page previews when asked.
    public var png: PNGOptions?
    /// Only these physical pages (1-based), e.g. `[3...7]`; nil for all. Refused with a print
    /// interior profile: a printer takes whole books.
    public var pages: [ClosedRange<Int>]?
    /// With a print profile: write the PDF even when preflight finds errors. And replace outputs
    /// that are read-only files (without it, such a file stops the export before anything is written).
    public var force: Bool
    /// Also write the report as JSON to this file.
    public var report: URL?
    /// Keep the laid-out page tree in the report (`ExportReport.pageTree`), for programs that
    /// inspect the layout after drawing it.
    public var keepPageTree: Bool
    /// Called as pages are finished (see `ExportProgress`); never with the same count twice.
    public var progress: (@Sendable (ExportProgress) -> Void)?
    /// A tagged PDF: its logical structure (headings, paragraphs, figures with their alternate
    /// text) for screen readers and reflow. Off only for a workflow that cannot take the tags.
    public var tagged = true
    /// An EPUB 3 fixed-layout e-book of the same pages (see `EPUBWriter`), with the book's
    /// narration as media overlays.
    public var epub: URL?
    /// Only the first this many pages, marked as a preview (`PreviewMark`), for a screen: the PDF
    /// small, its pictures at screen resolution. Laid out without the pages after them.
    public var preview: Int?

    public struct PNGOptions: Sendable {
        public var folder: URL
        /// Resolution in dots per inch (10–1200); a page is `trim × dpi` pixels.
        public var dpi: Double
        /// Also `spread-001.png` (page 1 alone), `spread-002-003.png`…, shaded along the spine.
        public var spreads: Bool

        public init(folder: URL, dpi: Double = 150, spreads: Bool = false) {
            self.folder = folder; self.dpi = dpi; self.spreads = spreads
        }
    }

    public init(pdf: URL? = nil, png: PNGOptions? = nil, pages: [ClosedRange<Int>]? = nil, force: Bool = false,
                report: URL? = nil, keepPageTree: Bool = false, epub: URL? = nil, preview: Int? = nil) {
        self.pdf = pdf; self.png = png; self.pages = pages; self.force = force; self.report = report
        self.keepPageTree = keepPageTree; self.epub = epub; self.preview = preview
    }

    func check() throws(BookRenderError) {
        guard pdf != nil || png != nil || epub != nil else {
            throw BookRenderError(.invalidOptions, "nothing to write: give a PDF, a PNG folder, an EPUB, or several")
        }
        if let epub, epub.pathExtension.lowercased() != "epub" {
            throw BookRenderError(.invalidOptions, "the EPUB must be a .epub file, not \(epub.path)")
        }
        if let preview {
            guard preview >= 1 else { throw BookRenderError(.invalidOptions, "a preview shows at least 1 page, not \(preview)") }
            guard epub == nil else { throw BookRenderError(.invalidOptions, "a preview is a PDF and PNG pages; an EPUB is of the whole book") }
            guard pages == nil else { throw BookRenderError(.invalidOptions, "a preview shows the first pages; leave out the page selection") }
        }
        if let pdf, pdf.pathExtension.lowercased() != "pdf" {
            throw BookRenderError(.invalidOptions, "the PDF must be a .pdf file, not \(pdf.path)")
        }
        if let png, !(png.dpi.isFinite && png.dpi >= 10 && png.dpi <= 1200) {
            throw BookRenderError(.invalidOptions, "the PNG resolution must be between 10 and 1200 dpi, not \(png.dpi)")
        }
        if let pages, pages.isEmpty || pages.contains(where: { $0.lowerBound < 1 }) {
            throw BookRenderError(.invalidOptions, "pages are numbered from 1")
        }
    }

    /// The selected pages of a book of `count` pages, nil for all.
    func selectedPages(of count: Int) throws(BookRenderError) -> Set<Int>? {
        guard let pages else { return nil }
        if let bad = pages.first(where: { $0.upperBound > count }) {
            throw BookRenderError(.invalidOptions, "pages \(bad.lowerBound)-\(bad.upperBound): the book has \(count) pages")
        }
        return Set(pages.flatMap { Array($0) })
    }
}
