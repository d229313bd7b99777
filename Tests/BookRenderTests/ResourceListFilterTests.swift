import Testing
import Foundation
import CGraphics
import BookTestSupport
@testable import BookRender

/// cairo names a source once per use in a page's resources; the sink keeps the first and writes
/// the repeats as spaces, so the keys are unique and every offset stays where cairo counted it.
@Suite struct ResourceListFilterTests {
    /// The PDF of one page painting one picture three times, written through `PDFSink`.
    func pdfPaintingOnePictureThreeTimes() throws -> URL {
        let dir = try temporaryDirectory("resources")
        let url = dir.appendingPathComponent("three.pdf")
        let sink = try PDFSink(url, copyingOnAThread: false)
        let box = Unmanaged.passUnretained(sink).toOpaque()
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let sink = Unmanaged<PDFSink>.fromOpaque(closure!).takeUnretainedValue()
            return sink.write(data!, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, box, 100, 100)!
        let cr = cairo_create(surface)!
        let picture = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 40, 40)!
        for i in 0..<3 {
            cairo_set_source_surface(cr, picture, Double(i) * 20, 0)
            cairo_paint(cr)
        }
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        cairo_surface_destroy(picture)
        _ = try sink.close()
        return url
    }

    @Test func aPictureDrawnThreeTimesIsNamedOnceAndQPDFAcceptsTheFile() throws {
        let pdf = try pdfPaintingOnePictureThreeTimes()
        let text = String(decoding: try Data(contentsOf: pdf), as: UTF8.self)
        let list = try #require(text.range(of: "/XObject <<").map { text[$0.upperBound...].prefix { $0 != ">" } })
        #expect(list.components(separatedBy: " 0 R").count - 1 == 1, "\(list)")
        let check = try run("qpdf", ["--check", pdf.path])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
    }

    @Test func entriesSplitOverWritesAreHeldUntilWholeAndEverythingElsePasses() {
        var filter = ResourceListFilter()
        func pass(_ text: String) -> String {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { String(decoding: filter.wants($0) ? filter.pass($0) : bytes, as: UTF8.self) }
        }
        let writes = ["   /XObject <<", " /x", "6 ", "6 0 R", " /x", "6 ", "6 0 R", " /x", "7 ", "7 0 R", " >>\n", " /x", "6 ", "6 0 R"]
        let out = writes.map(pass).joined()
        let blank = String(repeating: " ", count: " /x6 6 0 R".count)
        #expect(out == "   /XObject << /x6 6 0 R" + blank + " /x7 7 0 R >>\n /x6 6 0 R")
        #expect(out.utf8.count == writes.joined().utf8.count)
    }
}
