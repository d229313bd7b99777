import Foundation
import BookBase
import CGraphics
import BookConfig
import BookLayout

/// Draws a page tree into one PDF: one PDF page per physical page at the trim size, fonts embedded
/// as subsets by cairo, JPEGs passed through, and fixed dates so the same book gives the same bytes.
///
/// Pages stream (see `PDFPageStream`), so memory stays flat however long the book.
public enum PDFWriter {
    /// Used when the book carries no `created` date.
    public static let fallbackDate = "2000-01-01T00:00:00Z"

    /// `pages`: physical page numbers to write (all when nil).
    /// `opaque`: draw without transparency (for CMYK print; see `PageDrawer`).
    /// `threads`: 1 keeps the work on this thread (pictures copied here, see `PDFSink`).
    public static func write(_ tree: PageTree, to url: URL, pages: Set<Int>? = nil, opaque: Bool = false, tagged: Bool = true,
                             threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        try AtomicOutput.write(to: url) { tmp in
            _ = try draw(tree, into: tmp, pages: pages, opaque: opaque, tagged: tagged, for: url, threads: threads)
        }
    }

    /// What drawing wrote that finishing needs: a digest of the content (`ContentHash`), the basis
    /// of the document's `/ID`, and each `P` element's paragraph (`StructureTags.ParagraphNumbers`).
    struct Drawn {
        var digest: String
        var paragraphs: [Int]
        /// The page content streams (by object number) marked as they were written.
        var markedContents: Set<Int> = []
    }

    /// Writes the PDF to `file` (not atomically: for a caller that finishes it in place).
    /// Errors name `target`, the PDF `file` will become.
    static func draw(_ tree: PageTree, into file: URL, pages: Set<Int>?, opaque: Bool, tagged: Bool, for target: URL,
                     threads: Int, cmyk: CMYKPictures? = nil) throws -> Drawn {
        let stream = try PDFPageStream(into: file, for: target, document: PDFDocument(tree, tagged: tagged), opaque: opaque,
                                       threads: threads, cmyk: cmyk)
        for page in tree.pages where pages?.contains(page.number) ?? true {
            try stream.draw(page)
        }
        let digest = try stream.close()
        return Drawn(digest: digest, paragraphs: stream.paragraphs, markedContents: stream.markedContents)
    }

    /// cairo parses "YYYY-MM-DDThh:mm:ss" with a zone; anything else falls back to a fixed date,
    /// never to the clock.
    static func pdfDate(_ created: String?) -> String {
        // The shape "dddd-dd-ddTdd:dd:dd", d an ASCII digit.
        let shape = Array("0000-00-00T00:00:00".utf8)
        guard let created, created.utf8.count >= shape.count,
              zip(created.utf8, shape).allSatisfy({ c, s in s == 0x30 ? (0x30...0x39).contains(c) : c == s }) else {
            return fallbackDate
        }
        return String(created.prefix(19)) + "Z"
    }
}

/// What the PDF needs to know of its book before the first page: the page size and the metadata.
public struct PDFDocument: Sendable {
    public var trim: TrimSize
    public var geometry: PrintGeometry
    public var title: String
    public var author: String?
    public var created: String?
    /// With the logical structure (`StructureTags`): headings, paragraphs, figures, captions.
    public var tagged: Bool
    /// Files embedded in it: a narrated book's recordings.
    public var attachments: [PDFAttachment] = []

    public init(trim: TrimSize, geometry: PrintGeometry, title: String, author: String?, created: String?, tagged: Bool = true) {
        self.trim = trim; self.geometry = geometry; self.title = title; self.author = author; self.created = created
        self.tagged = tagged
    }

    init(_ tree: PageTree, tagged: Bool = true) {
        self.init(trim: tree.trim, geometry: tree.geometry, title: tree.title, author: tree.author, created: tree.created,
                  tagged: tagged)
    }
}

/// One PDF drawn a page at a time, as the pages come: cairo writes each page, and the pictures it
/// uses, when the page is shown, and the drawer keeps no picture beyond its page.
final class PDFPageStream {
    private let sink: PDFSink
    private let document: PDFDocument
    private let drawer: PageDrawer
    private let surface: OpaquePointer
    private let cr: OpaquePointer

    /// `text`: glyph runs, whose text is the book's (Pango's drawing keeps soft hyphens and
    /// decorations in the text; a test holds both to the same pixels). `threads`: above 1,
    /// pictures are copied into the file on a thread of their own. `pictures`: where the pictures
    /// come from, when not the book's own files. `cmyk`: for a CMYK file, the pictures as CMYK JPEGs.
    init(into file: URL, for target: URL, document: PDFDocument, opaque: Bool,
         text: PageDrawer.TextDrawing = .glyphRunsMadeHere, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
         pictures: ImageSources? = nil, cmyk: CMYKPictures? = nil) throws {
        sink = try PDFSink(file, name: target, copyingOnAThread: threads > 1, marksArtifacts: document.tagged)
        self.document = document
        let media = document.geometry.mediaSize(trim: document.trim)
        drawer = PageDrawer(images: pictures ?? PDFImageSources(sink: sink, cmyk: cmyk), opaque: opaque, text: text,
                            tagged: document.tagged)
        surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            // Called for every few bytes cairo writes: the sink, kept alive by its stream, is
            // used without retaining it each time.
            Unmanaged<PDFSink>.fromOpaque(closure!)._withUnsafeGuaranteedRef { sink in
                sink.write(data!, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
            }
        }, Unmanaged.passUnretained(sink).toOpaque(), media.width, media.height)!
        cr = cairo_create(surface)!
        try check()
        setMetadata()
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    func draw(_ page: PageNode) throws {
        let origin = document.geometry.trimOrigin(page: page.number)
        cairo_save(cr)
        cairo_translate(cr, origin.x, origin.y)
        try drawer.draw(page, on: cr)
        cairo_restore(cr)
        pagesShown += 1
        drawnNumbers.append(page.number)
        cairo_show_page(cr)
        try check()
    }

    /// Pages drawn so far, for messages.
    private var pagesShown = 0
    /// The pages' numbers in the order they were drawn.
    private(set) var drawnNumbers: [Int] = []

    /// The page content streams the sink marked as it wrote them.
    var markedContents: Set<Int> { sink.plainStreams.marked }

    /// Each `P` element's paragraph, for joining the parts of a divided one.
    var paragraphs: [Int] { drawer.paragraphs.numbers }

    /// Finishes the PDF and returns the digest of its content.
    func close() throws -> String {
        cairo_surface_finish(surface)
        try check()
        return try sink.close()
    }

    private func check() throws {
        if let error = sink.error { throw PDFSink.thrownError(for: error, writing: sink.path) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("writing \(sink.path) failed: \(String(cString: cairo_status_to_string(status)))")
        }
        // A context in error draws nothing more, not even the pages it is asked to show: the
        // file would end early with no sign of it.
        let drawing = cairo_status(cr)
        guard drawing == CAIRO_STATUS_SUCCESS else {
            throw RenderError("drawing page \(pagesShown) into \(sink.path) failed: \(String(cString: cairo_status_to_string(drawing)))")
        }
    }

    private func setMetadata() {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, document.title)
        if let author = document.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "bookrender")
        let date = PDFWriter.pdfDate(document.created)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }
}
