import Testing
import Foundation
import BookLayout
@testable import BookRender
import BookTestSupport
import BookRenderKit

/// The PDF's text is drawn from glyph runs, so that pages can be drawn while helper threads still
/// lay out later texts. The runs carry Pango's clusters: the PDF must be the one Pango's own cairo
/// renderer writes, byte for byte, text layer included, for every golden case (so in every script
/// the goldens cover).
///
/// One golden at a time: cairo 1.16 keeps at most ten FreeType faces open and, to open another,
/// closes one it finds unlocked without taking that face's lock, so a thread about to use it gets
/// a freed face (`_cairo_ft_unscaled_font_lock_face`). The goldens drawn at once, in Latin,
/// Hebrew, Arabic, CJK and emoji fonts, open more than ten (see README, Known limits).
@Suite(.serialized) struct GlyphRunPDFTests {
    @Test(arguments: GoldenCase.all)
    func glyphRunsWriteThePDFPangoWrites(_ golden: GoldenCase) throws {
        let book = golden.input
        let tree = try TestBooks.open(book).layout()
        let dir = try temporaryDirectory("glyph-run-pdf")
        func draw(throughPango: Bool) throws -> Data {
            let file = dir.appendingPathComponent(throughPango ? "pango.pdf" : "runs.pdf")
            let stream = try PDFPageStream(into: file, for: file, document: PDFDocument(tree), opaque: false,
                                           text: throughPango ? .pango : .glyphRuns)
            for page in tree.pages { try stream.draw(page) }
            _ = try stream.close()
            return try Data(contentsOf: file)
        }
        let runs = try draw(throughPango: false), pango = try draw(throughPango: true)
        #expect(tree.pages.contains { $0.items.contains { if case .text = $0 { true } else { false } } })
        #expect(runs == pango, "\(golden): \(runs.count) bytes from glyph runs, \(pango.count) through Pango")
    }
}
