import Foundation
import BookBase
import CContentColour

/// Takes transparency out of a PDF for printers that refuse it, touching as little as it can.
///
/// A page without real transparency (`PageTransparency`) only loses its `/Group`, which cairo
/// writes on every page and which then changes nothing drawn: its text, vectors and passed-through
/// JPEG bytes stay as they are. A page with some is drawn by Ghostscript's pdfwrite at PDF 1.3,
/// which has no transparency, so it renders that page into one picture at `resolution` with the
/// colours left as they are (RGB stays RGB); the page keeps its object, boxes and place, and takes
/// the new page's contents and resources.
enum TransparencyFlattener {
    /// Pixels per inch of a flattened page: the printers' picture resolution, twice over, so text
    /// drawn into it stays sharp.
    static let resolution = 600

    /// `input` with its pages that use transparency flattened, written into `work`; `input` itself
    /// when there are none.
    static func flatten(_ input: URL, work: URL, ghostscript: String = "gs") throws -> URL {
        let pages = try PageTransparency.pages(in: try QPDFDocument(reading: input))
        guard !pages.isEmpty else { return input }
        let rendered = work.appendingPathComponent("flattened-pages.pdf")
        try CMYKConverter.runGhostscript(arguments(input: input, output: rendered, pages: pages),
                                         executable: ghostscript, work: work, purpose: "flattening transparency")
        let output = work.appendingPathComponent("flattened.pdf")
        var message = [CChar](repeating: 0, count: 1024)
        let indices = pages.map { Int32($0) }
        guard content_replace_pages(input.path, rendered.path, indices, indices.count, output.path, &message, message.count) == 0 else {
            throw FinishingError("flattening the transparency of \(input.path): \(String(cString: message))")
        }
        return output
    }

    /// Removes cairo's `/Group` from every page; for a page without transparency it changes nothing drawn.
    static func removePageGroups(_ doc: QPDFDocument) throws {
        for i in 0..<(try doc.pageCount) {
            let page = try doc.page(i)
            try doc.remove(page, "/Group")
            doc.release(page)
        }
    }

    /// Whether the PDF at `url` has pages to flatten (and so must be rewritten whole).
    static func needsFlattening(_ url: URL) throws -> Bool {
        try !PageTransparency.pages(in: try QPDFDocument(reading: url, mapping: true)).isEmpty
    }

    /// The Ghostscript command line (without the executable): only `pages` (from 0), at PDF 1.3,
    /// colours unchanged, pictures kept at their resolution and compressed without loss.
    static func arguments(input: URL, output: URL, pages: [Int]) -> [String] {
        [
            "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER",
            "-sDEVICE=pdfwrite", "-dCompatibilityLevel=1.3", "-sColorConversionStrategy=LeaveColorUnchanged",
            "-r\(resolution)", "-sPageList=\(pages.map { String($0 + 1) }.joined(separator: ","))",
            "-dDownsampleColorImages=false", "-dDownsampleGrayImages=false", "-dDownsampleMonoImages=false",
            "-dAutoFilterColorImages=false", "-dColorImageFilter=/FlateEncode",
            "-dAutoFilterGrayImages=false", "-dGrayImageFilter=/FlateEncode",
            "-sOutputFile=\(output.path)", input.path,
        ]
    }
}
