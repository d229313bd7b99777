import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport
import BookRenderKit

/// Paragraph spacing and where a short text stands on its page.
@Suite struct TextPlacementTests {
    @Test func paragraphSpacingOpensTheGapBetweenParagraphsOnly() throws {
        let typesetter = try TestFonts.typesetter()
        var style = TextStyle(family: "Andika", size: 12, lineHeight: 1.4)
        let text = "One line.\nA line break, not a paragraph.\n\nA new paragraph."
        let plain = typesetter.layout(text, style: style, width: 400, alignment: .start, hyphenate: false)
        style.paragraphSpacing = 7
        let spaced = typesetter.layout(text, style: style, width: 400, alignment: .start, hyphenate: false)
        #expect(plain.lines.count == 3 && spaced.lines.count == 3)
        let pitch = plain.lines[1].baseline - plain.lines[0].baseline
        #expect(abs((spaced.lines[1].baseline - spaced.lines[0].baseline) - pitch) < 0.01, "a line break gets no space")
        #expect(abs((spaced.lines[2].baseline - spaced.lines[1].baseline) - (pitch + 7)) < 0.01)
        // The boxes still tile, and the text's last line carries no space after it.
        #expect(abs(spaced.lines[2].top - spaced.lines[1].bottom) < 0.01)
        #expect(abs(spaced.height - (plain.height + 7)) < 0.01)
    }

    @Test func aShortTextPageStandsAtTheOpticalCentre() throws {
        let book = GoldenCase.root.appendingPathComponent("text-pagination/short-text-page/book.json")
        let tree = try TestBooks.open(book).layout()
        let page = try #require(tree.pages.first { $0.role == .text })
        let body = try #require(page.textBoxes.first { $0.text.contains("goodnight") })
        let top = tree.margins.top, bottom = tree.trim.height - tree.margins.bottom
        let used = body.layout.lines[body.lines.upperBound - 1].bottom - body.layoutTop
        let above = body.frame.y - top, below = bottom - (body.frame.y + used)
        #expect(above > 0 && below > 0)
        #expect(above < below, "centred a little above the middle")
        #expect(abs(above / (above + below) - 0.4) < 0.01)
    }

    @Test func picturePlaceholdersKeepTheirArtInsideTheFrame() throws {
        // The motif is clipped to the dashed frame: nothing of the accent sun or hills lands in the
        // band between the frame and the wash's edge.
        let book = GoldenCase.root.appendingPathComponent("placeholders/scene-only/book.json")
        let document = try TestBooks.open(book)
        let tree = try document.layout()
        let page = try #require(tree.pages.first { $0.role == .illustration })
        let art = try #require(page.items.compactMap { item -> PlaceholderArt? in
            if case .placeholderArt(let a) = item { return a } else { return nil } }.first)
        let dir = try temporaryDirectory("placeholder-frame")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("p.pdf")
        _ = try document.export(ExportOptions(pdf: pdf))
        // Just inside the wash's left and right edges, on the ground line under the hills, which
        // runs the motif's whole width: wash colour only.
        let y = art.rect.y + art.rect.height * 0.6 + 0.25
        for x in [art.rect.x + 2.5, art.rect.maxX - 2.5] {
            let (r, g, b) = try PDFReaders.rgbPixel(pdf, page: page.number, x: x, y: y)
            let wash = art.wash
            #expect(abs(Double(r) - wash.red * 255) < 12 && abs(Double(g) - wash.green * 255) < 12 && abs(Double(b) - wash.blue * 255) < 12,
                    "(\(r), \(g), \(b)) at x \(x): the motif reaches past its frame")
        }
    }
}
