import Foundation
import Testing
import CGraphics
import CShim
import BookTestSupport

/// cairo's PDF streams compressed by libdeflate (`CShim/shim_pdf_deflate.c`): PDF readers get back
/// exactly what cairo wrote.
@Suite struct PDFDeflateTests {
    /// Rectangles in as many colours: 3,000 make a content stream of about 150 KB, gathered whole
    /// and compressed by libdeflate into several times cairo's 16 KiB output buffer, so it is handed
    /// over in several calls; 40,000 make one past the 256 KiB limit, which zlib goes on with.
    @Test(arguments: [(3_000, false), (40_000, true)])
    func aLargeContentStreamReadsBackWhole(_ count: Int, _ pastTheLimit: Bool) throws {
        let dir = try temporaryDirectory("deflate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("rectangles.pdf")
        let before = shim_pdf_deflate_totals()
        var seed: UInt64 = 7
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let surface = try #require(cairo_pdf_surface_create(url.path, 600, 800))
        let cr = try #require(cairo_create(surface))
        for _ in 0..<count {
            cairo_set_source_rgb(cr, random(), random(), random())
            cairo_rectangle(cr, random() * 590, random() * 790, 1 + random() * 9, 1 + random() * 9)
            cairo_fill(cr)
        }
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        #expect(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(surface)
        let after = shim_pdf_deflate_totals()
        #expect(after.streams > before.streams)
        if pastTheLimit {
            #expect(after.handedToZlib > before.handedToZlib)
        } else {
            #expect(after.bytesOut - before.bytesOut > 32 * 1024, "compressed \(after.bytesOut - before.bytesOut) bytes")
        }

        let check = try run("qpdf", ["--check", url.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let plain = dir.appendingPathComponent("plain.pdf")
        let decoded = try run("qpdf", ["--qdf", "--object-streams=disable", url.path, plain.path])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let tokens = try Data(contentsOf: plain).split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D })
        #expect(tokens.filter { $0.elementsEqual("re".utf8) }.count == count)
    }

    /// A page of text: its font (cairo's compress) and its content (a deflate stream) read back.
    @Test func textAndItsFontReadBack() throws {
        let dir = try temporaryDirectory("deflate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("text.pdf")
        let before = shim_pdf_deflate_totals()
        let surface = try #require(cairo_pdf_surface_create(url.path, 400, 300))
        let cr = try #require(cairo_create(surface))
        cairo_select_font_face(cr, "serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 14)
        let lines = ["The lantern fox crossed the frozen river", "and counted every star twice before dawn."]
        for (i, line) in lines.enumerated() {
            cairo_move_to(cr, 20, 40 + Double(i) * 24)
            cairo_show_text(cr, line)
        }
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        let after = shim_pdf_deflate_totals()
        #expect(after.streams >= before.streams + 2, "the page's content and the font")

        #expect(try run("qpdf", ["--check", url.path]).status == 0)
        let text = try run("pdftotext", [url.path, "-"])
        #expect(text.status == 0)
        let words = text.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words == lines.joined(separator: " "))
    }
}
