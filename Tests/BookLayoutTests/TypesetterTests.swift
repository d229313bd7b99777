import Foundation
import Testing
import CGraphics
@testable import BookLayout

@Suite struct TypesetterTests {
    // MARK: Fonts and scripts

    @Test(arguments: [
        ("שלום עולם, מה שלומך היום?", "NotoSansHebrew-Regular.ttf"),
        ("مرحبا بالعالم، كيف حالك اليوم؟", "NotoNaskhArabic-Regular.ttf"),
        ("日本語の文章と中文的句子", "NotoSansCJK-Regular.ttc"),
        ("A smile 😀 and a heart ❤️ and a family 👩‍👩‍👧", "NotoColorEmoji.ttf"),
    ])
    func otherScriptsFallBackToNoto(text: String, expectedFile: String) throws {
        // Andika has Latin, Greek and Cyrillic only, so everything else must come from the fallbacks.
        let layout = try makeTypesetter().layout(text, style: childrenStyle, width: 400, alignment: .start, hyphenate: false)
        #expect(layout.fontFiles.map(fileName).contains(expectedFile), "\(layout.fontFiles)")
        #expect(layout.unknownGlyphCount == 0)
        let ours = Set(try fontLibrary().manifest.files.map(\.path))
        #expect(layout.fontFiles.isSubset(of: ours))
    }

    /// Placing a picture page's words asks for the same short texts again and again: each is set
    /// once, and the same layout handed out again. A long text (a chapter) is not held.
    @Test func aShortTextAskedForAgainIsSetOnce() throws {
        let typesetter = try makeTypesetter()
        let first = typesetter.layout("A fox in the snow.", style: childrenStyle, width: 200, alignment: .center, hyphenate: false)
        let made = typesetter.layoutsMade
        let again = typesetter.layout("A fox in the snow.", style: childrenStyle, width: 200, alignment: .center, hyphenate: false)
        #expect(again === first && typesetter.layoutsMade == made)
        // Another width, style or text is another layout.
        _ = typesetter.layout("A fox in the snow.", style: childrenStyle, width: 201, alignment: .center, hyphenate: false)
        _ = typesetter.layout("A fox in the snow!", style: childrenStyle, width: 200, alignment: .center, hyphenate: false)
        #expect(typesetter.layoutsMade == made + 2)
        let long = String(repeating: sampleEnglish + " ", count: 1 + Typesetter.rememberedBytes / max(1, sampleEnglish.utf8.count))
        let a = typesetter.layout(long, style: bodyStyle, width: 300, alignment: .start, hyphenate: false)
        let b = typesetter.layout(long, style: bodyStyle, width: 300, alignment: .start, hyphenate: false)
        #expect(a !== b && a.lines.map(\.byteRange) == b.lines.map(\.byteRange))
    }

    @Test func boldFallbackUsesTheBoldCollection() throws {
        var style = childrenStyle
        style.weight = 700
        let layout = try makeTypesetter().layout("Bold 日本語", style: style, width: 400, alignment: .start, hyphenate: false)
        #expect(Set(layout.fontFiles.map(fileName)) == ["Andika-Bold.ttf", "NotoSansCJK-Bold.ttc"])
    }

    @Test(arguments: ["\u{0378}", "\u{10FFFD}", "\u{0915}\u{093F}"])
    func charactersNoFontHasAreCountedAsUnknown(character: String) throws {
        let layout = try makeTypesetter().layout("a\(character)b", style: bodyStyle, width: 200, alignment: .start, hyphenate: false)
        #expect(layout.unknownGlyphCount > 0)
    }

    @Test func markupCharactersArePlainText() throws {
        let text = "Tom & Jerry <b>not bold</b> &amp;"
        let layout = try makeTypesetter().layout(text, style: bodyStyle, width: 500, alignment: .start, hyphenate: false)
        #expect(layout.text == text)
        #expect(layout.lines.map(\.text).joined() == text)
        #expect(layout.unknownGlyphCount == 0)
    }

    // MARK: Line breaking

    @Test func lineBreaksAreRepeatableAndIndependentOfSurfaces() throws {
        let a = try makeTypesetter().layout(sampleEnglish, style: bodyStyle, width: 180, alignment: .justify, hyphenate: true)
        let b = try makeTypesetter().layout(sampleEnglish, style: bodyStyle, width: 180, alignment: .justify, hyphenate: true)
        #expect(a.lines == b.lines)
        #expect(a.text == b.text)

        // Drawing into a 150-dpi raster and a PDF must not disturb the measured layout.
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 900)
        let cr = cairo_create(image)
        cairo_scale(cr, 150.0 / 72.0, 150.0 / 72.0)
        for i in a.lines.indices {
            cairo_move_to(cr, a.lines[i].x, a.lines[i].baseline)
            #expect(a.showWithPango(line: i, on: cr!, asPath: false))
        }
        cairo_destroy(cr)
        cairo_surface_destroy(image)
        let pdfPath = FileManager.default.temporaryDirectory.appendingPathComponent("typesetter-\(UUID().uuidString).pdf").path
        let pdf = cairo_pdf_surface_create(pdfPath, 200, 400)
        let pdfCr = cairo_create(pdf)
        for i in a.lines.indices {
            cairo_move_to(pdfCr, a.lines[i].x, a.lines[i].baseline)
            #expect(a.showWithPango(line: i, on: pdfCr!, asPath: false))
        }
        cairo_destroy(pdfCr)
        cairo_surface_destroy(pdf)
        try? FileManager.default.removeItem(atPath: pdfPath)

        let c = try makeTypesetter().layout(sampleEnglish, style: bodyStyle, width: 180, alignment: .justify, hyphenate: true)
        #expect(c.lines == a.lines)
        // Each line's runs start where the line does.
        var text = a.text
        let runStarts = text.withUTF8 { bytes in
            a.lines.indices.map { i -> Int? in
                guard let (runs, runText, start) = a.lineRuns(i), let first = runs.first else { return nil }
                #expect(strncmp(runText + start, UnsafeRawPointer(bytes.baseAddress! + a.lines[i].byteRange.lowerBound)
                    .assumingMemoryBound(to: CChar.self), a.lines[i].byteRange.count) == 0, "line \(i)'s text")
                return a.lines[i].byteRange.lowerBound - start + Int(first.pointee.item.pointee.offset)
            }
        }
        #expect(runStarts == a.lines.map { Optional($0.byteRange.lowerBound) })
    }

    @Test(arguments: [TextAlignment.start, .center, .end, .justify])
    func noLineIsWiderThanTheColumn(alignment: TextAlignment) throws {
        let text = sampleEnglish + "\n\nSee https://example.com/a/very/long/path/that/cannot/possibly/fit/on/one/line for more. "
            + "Pneumonoultramicroscopicsilicovolcanoconiosis!"
        for width in [60.0, 90.0, 150.0, 333.0] {
            let layout = try makeTypesetter().layout(text, style: bodyStyle, width: width, alignment: alignment, hyphenate: true)
            for line in layout.lines {
                #expect(line.x >= -0.01 && line.x + line.width <= width + 0.01, "\(width): \(line)")
            }
        }
    }

    @Test func justifiedNarrowColumnsAreHyphenatedWithoutLosingText() throws {
        let layout = try makeTypesetter().layout(sampleEnglish, style: bodyStyle, width: 150, alignment: .justify, hyphenate: true)
        #expect(layout.hyphenated)
        #expect(layout.lines.contains { $0.endsWithSoftHyphen })
        for line in layout.lines where line.endsWithSoftHyphen { #expect(line.text.hasSuffix("\u{00AD}")) }
        let joined = layout.lines.map(\.text).joined().replacingOccurrences(of: "\u{00AD}", with: "")
        #expect(joined == sampleEnglish)
        // Justified lines fill the column, except each paragraph's last.
        for line in layout.lines.dropLast() { #expect(abs(line.width - 150) < 0.5, "\(line)") }
    }

    @Test func withoutHyphenationTheTextIsUntouched() throws {
        let layout = try makeTypesetter().layout(sampleEnglish, style: bodyStyle, width: 150, alignment: .justify, hyphenate: false)
        #expect(!layout.hyphenated)
        #expect(layout.text == sampleEnglish)
        #expect(!layout.lines.contains { $0.endsWithSoftHyphen })
    }

    @Test func aLanguageWithoutDictionaryIsSetUnhyphenated() throws {
        let typesetter = try makeTypesetter(language: "tlh")
        #expect(typesetter.hyphenator == nil)
        let layout = typesetter.layout(sampleEnglish, style: bodyStyle, width: 150, alignment: .justify, hyphenate: true)
        #expect(!layout.hyphenated)
        #expect(layout.text == sampleEnglish)
    }

    // MARK: Paragraphs and geometry

    @Test func blankLinesSeparateParagraphsAndSingleNewlinesBreakLines() throws {
        let text = "First paragraph.\n\n\n  \nSecond paragraph,\nsame paragraph on a new line.\r\n\r\nThird."
        var style = bodyStyle
        style.firstLineIndent = 18
        let layout = try makeTypesetter().layout(text, style: style, width: 500, alignment: .start, hyphenate: false)
        #expect(layout.text == "First paragraph.\nSecond paragraph,\u{2028}same paragraph on a new line.\nThird.")
        #expect(layout.lines.map(\.paragraph) == [0, 1, 1, 2])
        #expect(layout.lines.map(\.indexInParagraph) == [0, 0, 1, 0])
        #expect(layout.lines.map(\.paragraphLineCount) == [1, 2, 2, 1])
        #expect(layout.lines.map(\.x) == [18, 18, 0, 18])
        for line in layout.lines {
            let bytes = Array(layout.text.utf8)[line.byteRange]
            #expect(String(decoding: bytes, as: UTF8.self) == line.text)
        }
        #expect(layout.unknownGlyphCount == 0)
    }

    @Test func emptyTextHasNoLines() throws {
        let layout = try makeTypesetter().layout("\n\n  \n", style: bodyStyle, width: 200, alignment: .start, hyphenate: true)
        #expect(layout.lines.isEmpty)
        #expect(layout.height == 0)
    }

    @Test func linesTileAtTheStyledLineHeight() throws {
        let layout = try makeTypesetter().layout(sampleEnglish, style: bodyStyle, width: 200, alignment: .justify, hyphenate: true)
        #expect(layout.lines.first?.top == 0)
        for (previous, line) in zip(layout.lines, layout.lines.dropFirst()) {
            #expect(abs(line.top - previous.bottom) < 1e-9)
        }
        for line in layout.lines {
            #expect(abs(line.height - 16.8) < 0.01)
            #expect(line.baseline > line.top && line.baseline < line.bottom)
        }
        #expect(abs(layout.height - 16.8 * Double(layout.lines.count)) < 0.05)
    }

    @Test func emojiLinesKeepANormalHeight() throws {
        // Noto Color Emoji is a 109-pixel bitmap font; unscaled, its metrics made 128 pt lines.
        let layout = try makeTypesetter().layout("😀😀😀\n\nText 🐘 and more", style: bodyStyle, width: 300, alignment: .start, hyphenate: false)
        #expect(layout.lines.count == 2)
        for line in layout.lines { #expect(line.height > 14 && line.height < 20, "\(line)") }
    }

    @Test func rightToLeftParagraphsStartAtTheRight() throws {
        let layout = try makeTypesetter().layout("שלום עולם", style: childrenStyle, width: 300, alignment: .start, hyphenate: false)
        let line = try #require(layout.lines.first)
        #expect(abs(line.x + line.width - 300) < 0.01)
        let latin = try makeTypesetter().layout("Hello", style: childrenStyle, width: 300, alignment: .start, hyphenate: false)
        #expect(latin.lines.first?.x == 0)
    }

    @Test func centeredAndEndAlignedLines() throws {
        let typesetter = try makeTypesetter()
        let centered = typesetter.layout("Hello", style: bodyStyle, width: 300, alignment: .center, hyphenate: false)
        let ended = typesetter.layout("Hello", style: bodyStyle, width: 300, alignment: .end, hyphenate: false)
        let c = try #require(centered.lines.first), e = try #require(ended.lines.first)
        #expect(abs(c.x - (300 - c.width) / 2) < 0.01)
        #expect(abs(e.x + e.width - 300) < 0.01)
    }

    @Test func letterSpacingWidensLines() throws {
        var spaced = bodyStyle
        spaced.letterSpacing = 2
        let typesetter = try makeTypesetter()
        let plain = typesetter.layout("Spacious", style: bodyStyle, width: 0, alignment: .start, hyphenate: false)
        let wide = typesetter.layout("Spacious", style: spaced, width: 0, alignment: .start, hyphenate: false)
        // Pango adds the spacing between letters, not after the last: 7 gaps in "Spacious".
        #expect(abs(wide.lines[0].width - plain.lines[0].width - 14) < 0.01)
    }

    @Test func typesettersOnSeparateThreadsAgree() async throws {
        let results = try await withThrowingTaskGroup(of: [TextLine].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let typesetter = try makeTypesetter()
                    return typesetter.layout(sampleEnglish, style: bodyStyle, width: 170, alignment: .justify, hyphenate: true).lines
                }
            }
            var all: [[TextLine]] = []
            for try await lines in group { all.append(lines) }
            return all
        }
        #expect(results.count == 4)
        #expect(Set(results.map { $0.map(\.byteRange.lowerBound) }).count == 1)
    }

    // MARK: One Pango layout per run of paragraphs

    /// A text is laid out a run of paragraphs at a time; the lines must be those of one Pango
    /// layout of the whole text, set the same way: same breaks, same positions, same direction for
    /// a paragraph without strong characters (it takes the one before it). Lines stand on the
    /// pitch, where Pango's own would drop under a line set in a fallback font (see
    /// `LinePitchTests`).
    @Test(arguments: [TextAlignment.start, .center, .end, .justify])
    func paragraphRunsBreakAsOneLayoutOfTheWholeText(alignment: TextAlignment) throws {
        let text = [sampleEnglish, "שלום עולם, מה שלומך היום? זה טקסט ארוך מספיק כדי לשבור שורות בעמודה צרה.",
                    "12 345 — 678", "“…”", "مرحبا بالعالم، كيف حالك اليوم؟", "2024", "Back to English, at the end.",
                    sampleEnglish].joined(separator: "\n\n")
        let typesetter = try makeTypesetter()
        let style = TextStyle(family: bodyStyle.family, size: bodyStyle.size, weight: bodyStyle.weight, italic: false,
                              lineHeight: 1.4, letterSpacing: 0, firstLineIndent: 14)
        let layout = typesetter.layout(text, style: style, width: 170, alignment: alignment, hyphenate: true,
                                       lineBreaking: .firstFit)
        #expect(layout.blocks.count == 5, "runs start at the English, Hebrew, Arabic, English and English paragraphs")

        let whole = typesetter.makePangoLayout(layout.text, bytes: 0..<layout.text.utf8.count, style: style, width: 170,
                                               alignment: alignment).layout
        defer { g_object_unref(UnsafeMutableRawPointer(whole)) }
        struct Line: Equatable { var start: Int32, x: Int32, y: Int32, width: Int32, baseline: Int32, direction: UInt32 }
        var expected: [Line] = []
        let iter = pango_layout_get_iter(whole)
        let pitch = try #require(typesetter.pitch(style))
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let line = pango_layout_iter_get_line_readonly(iter)!
            let top = Double(expected.count) * pitch.height
            expected.append(Line(start: line.pointee.start_index, x: logical.x, y: Typesetter.units(top), width: logical.width,
                                 baseline: Typesetter.units(top + pitch.baseline), direction: line.pointee.resolved_dir))
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)

        let scale = Double(PANGO_SCALE)
        let got = layout.lines.indices.map { i in
            let line = layout.lines[i]
            return Line(start: Int32(line.byteRange.lowerBound), x: Int32((line.x * scale).rounded()), y: Int32((line.top * scale).rounded()),
                        width: Int32((line.width * scale).rounded()), baseline: Int32((line.baseline * scale).rounded()),
                        direction: layout.pangoLine(i)!.pointee.resolved_dir)
        }
        #expect(got.count == expected.count)
        for (i, (g, e)) in zip(got, expected).enumerated() where g != e {
            Issue.record("line \(i) (\(layout.lines[i].text.prefix(30))): \(g) against one layout's \(e)")
            break
        }
        #expect(got.contains { $0.direction == PANGO_DIRECTION_RTL.rawValue })
    }
}
