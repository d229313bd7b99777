import Foundation
import BookBase
import BookLayout
import BookRender

/// Drawing a page tree a program laid out (or changed) itself, with the same code an export uses.
extension BookLayout.PageTree {
    /// A plain PDF of the pages (no print finishing), written atomically.
    public func writePDF(to url: URL) throws(BookRenderError) {
        try BookRenderError.wrap {
            try AtomicOutput.makeFolder(url.deletingLastPathComponent())
            try PDFWriter.write(self, to: url)
        }
    }

    /// One `page-NNN.png` per page at `dpi`, replacing the folder's previous pages as a set;
    /// returns the files in page order.
    @discardableResult
    public func writePNGs(to folder: URL, dpi: Double) throws(BookRenderError) -> [URL] {
        try BookRenderError.wrap {
            try PageSetOutput.write(into: folder) { staging in try PNGPageWriter(dpi: dpi).write(self, to: staging) }
        }
    }
}
