import Testing
import Foundation
import BookLayout
@testable import BookRender
import BookTestSupport
import BookRenderKit

/// The PDF's text is drawn from glyph runs, so that pages can be drawn while helper threads still
/// lay out later texts, and so that its text layer is the book's (see `RunText`). The glyphs must
/// be the ones Pango's own cairo renderer draws, at the same places: poppler draws both PDFs to
/// the same pixels, for every golden case (so in every script the goldens cover).
///
/// The goldens are drawn side by side, in Latin, Hebrew, Arabic, CJK and emoji fonts, more than the
/// ten FreeType faces cairo 1.16 keeps open: the test process's font set holds every face it has
/// (`FontLibrary.holdsEveryFace`), so cairo never closes one a thread is drawing with.
@Suite struct GlyphRunPDFTests {
    @Test(arguments: GoldenCase.all)
    func glyphRunsDrawThePDFPangoDraws(_ golden: GoldenCase) throws {
        let book = golden.input
        var tree = try TestBooks.open(book).layout()
        // Pango's drawing fills a text that is not the book's as outlines, which rasterize
        // differently from glyphs; as book text, both ways draw every text as glyphs.
        for p in tree.pages.indices {
            for i in tree.pages[p].items.indices {
                if case .text(var box) = tree.pages[p].items[i] { box.isBookText = true; tree.pages[p].items[i] = .text(box) }
            }
        }
        let dir = try temporaryDirectory("glyph-run-pdf")
        func pixels(throughPango: Bool) throws -> [Data] {
            let name = throughPango ? "pango" : "runs"
            let file = dir.appendingPathComponent(name + ".pdf")
            let stream = try PDFPageStream(into: file, for: file, document: PDFDocument(tree), opaque: false,
                                           text: throughPango ? .pango : .glyphRuns)
            for page in tree.pages { try stream.draw(page) }
            _ = try stream.close()
            try run("pdftoppm", ["-r", "72", "-png", file.path, dir.appendingPathComponent(name).path])
            let pages = try FileManager.default.contentsOfDirectory(atPath: dir.path)
                .filter { $0.hasPrefix(name + "-") && $0.hasSuffix(".png") }.sorted()
            return try pages.map { try Data(contentsOf: dir.appendingPathComponent($0)) }
        }
        let runs = try pixels(throughPango: false), pango = try pixels(throughPango: true)
        #expect(tree.pages.contains { $0.items.contains { if case .text = $0 { true } else { false } } })
        #expect(runs.count == tree.pages.count)
        #expect(runs == pango, "\(golden): glyph runs and Pango draw different pixels")
    }
}
