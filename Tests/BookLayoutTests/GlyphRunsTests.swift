import Foundation
import Testing
import CGraphics
@testable import BookLayout

/// Glyph runs: a laid-out text as plain glyphs, drawable without Pango on any thread.
@Suite struct GlyphRunsTests {
    @Test(arguments: [
        "Plain prose, justified and hyphenated, over several lines of a narrow column of text.",
        "שלום עולם, מה שלומך היום? Mixed with English.",
        "日本語の文章と中文的句子",
        "A smile 😀 and a heart ❤️",
    ])
    func everyGlyphOfEveryLineIsThere(text: String) throws {
        let layout = try makeTypesetter().layout(text, style: childrenStyle, width: 160, alignment: .justify, hyphenate: true)
        let lines = try #require(layout.glyphLines, "drawable without Pango")
        #expect(lines.count == layout.lines.count)
        for (runs, line) in zip(lines, layout.lines) {
            // The runs span the line's width, in Pango units, as Pango measured it.
            let glyphCount = runs.reduce(0) { $0 + $1.glyphs.count }
            #expect(glyphCount > 0 || line.text.allSatisfy(\.isWhitespace))
            #expect(runs.allSatisfy { cairo_scaled_font_status($0.font.pointer) == CAIRO_STATUS_SUCCESS })
        }
        let first = try #require(lines.first?.first?.glyphs.first)
        #expect(first.index > 0)
    }

    @Test func aMissingGlyphLeavesTheTextToPango() throws {
        // No font of the set has U+0378 (unassigned): Pango draws a box with its code, which only
        // Pango can draw.
        let layout = try makeTypesetter().layout("Before \u{0378} after", style: childrenStyle, width: 300, alignment: .start, hyphenate: false)
        #expect(layout.unknownGlyphCount == 1)
        #expect(layout.glyphLines == nil)
    }
}
