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
            #expect(runs.allSatisfy { cairo_scaled_font_status($0.font.pointer) == CAIRO_STATUS_SUCCESS })
            // The runs span the line's width as Pango measured it: from the first glyph's origin to
            // the end of the last glyph's advance, as cairo measures the glyphs it will draw. (A
            // colour emoji's advance in cairo differs from HarfBuzz's by a hair, hence the slack;
            // a lost glyph or a lost justification space is points.)
            let span = try #require(drawnSpan(runs), "line \(line.text) has no glyphs")
            #expect(abs(span.lowerBound) < 0.1, "line \(line.text) starts at \(span.lowerBound)")
            #expect(abs(span.upperBound - line.width) < 0.1, "line \(line.text): \(span.upperBound) drawn, \(line.width) measured")
        }
        let first = try #require(lines.first?.first?.glyphs.first)
        #expect(first.index > 0)
    }

    /// Where a line's glyphs reach, in points from the line's origin: each glyph's position plus
    /// its advance in its cairo font.
    func drawnSpan(_ runs: [GlyphRun]) -> ClosedRange<Double>? {
        var low = Double.infinity, high = -Double.infinity
        for run in runs {
            for g in run.glyphs {
                var glyph = cairo_glyph_t(index: UInt(g.index), x: 0, y: 0)
                var extents = cairo_text_extents_t()
                cairo_scaled_font_glyph_extents(run.font.pointer, &glyph, 1, &extents)
                let x = Double(run.x + g.x) / Double(PANGO_SCALE)
                low = min(low, x)
                high = max(high, x + extents.x_advance)
            }
        }
        return low <= high ? low...high : nil
    }

    @Test func aMissingGlyphLeavesTheTextToPango() throws {
        // No font of the set has U+0378 (unassigned): Pango draws a box with its code, which only
        // Pango can draw.
        let layout = try makeTypesetter().layout("Before \u{0378} after", style: childrenStyle, width: 300, alignment: .start, hyphenate: false)
        #expect(layout.unknownGlyphCount == 1)
        #expect(layout.glyphLines == nil)
    }

    /// A line too long for any page (a hundred thousand emoji with no space, set unwrapped) runs
    /// past Int32's range of Pango units: its glyphs are extracted, none lost, none wrapped round
    /// to a negative place.
    @Test func aLineBeyondInt32sRangeOfUnitsLosesNoGlyph() throws {
        let count = 100_000
        let text = String(repeating: "🐻", count: count)
        let style = TextStyle(family: "Andika", size: 24, weight: 400, italic: false, lineHeight: 1.2)
        let layout = try makeTypesetter().layout(text, style: style, width: 0, alignment: .start, hyphenate: false)
        #expect(layout.lines.count == 1)
        let lines = try #require(layout.glyphLines)
        let glyphs = lines[0].flatMap(\.glyphs)
        #expect(glyphs.count == count)
        var previous = Int32.min
        for g in glyphs {
            #expect(g.x >= previous, "positions only grow")
            previous = g.x
            if g.x < previous { break }
        }
        #expect(glyphs.last!.x == Int32.max, "the far end is held at the largest position")
    }

    /// A right-to-left word broken inside at a line's end gets Pango's hyphen; its byte joins the
    /// cluster that holds the word's last letters, so cairo takes the run's text and clusters
    /// (they once split a Hebrew letter, and cairo then drew no more pages).
    @Test func aHyphenInsideARightToLeftWordKeepsTheClustersWhole() throws {
        var style = TextStyle(family: "Linux Libertine O", size: 144, weight: 400, italic: false, lineHeight: 1.4)
        style.firstLineIndent = 1.2 * 144
        let layout = try makeTypesetter().layout("say, “שלום, שלום,” and then", style: style, width: 324,
                                                 alignment: .justify, hyphenate: true)
        let lines = try #require(layout.glyphLines)
        let runs = lines.flatMap { $0 }
        #expect(runs.contains { $0.endsInAddedHyphen && $0.backward }, "a right-to-left run ends in Pango's hyphen")
        let surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        for run in runs {
            cairo_set_scaled_font(cr, run.font.pointer)
            let glyphs = run.glyphs.map { cairo_glyph_t(index: UInt($0.index), x: Double($0.x) / 1024, y: Double($0.y) / 1024) }
            run.text.withUnsafeBufferPointer { text in
                cairo_show_text_glyphs(cr, text.baseAddress, Int32(text.count), glyphs, Int32(glyphs.count), run.clusters,
                                       Int32(run.clusters.count),
                                       run.backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0))
            }
            #expect(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "run \(String(decoding: run.text.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            if cairo_status(cr) != CAIRO_STATUS_SUCCESS { break }
        }
    }
}
