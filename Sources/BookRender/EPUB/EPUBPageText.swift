import Foundation
import CGraphics
import BookConfig
import BookLayout

/// A page's live text for the e-book: every line of the book's text as words placed where the
/// PDF draws their glyphs, in the font file and size of their run, so the text can be searched,
/// selected and read aloud over a picture of the page drawn without it.
struct EPUBPageText {
    struct Word {
        var text: String
        /// Left edge of the word's first glyph and the baseline, in points on the page.
        var x: Double
        var baseline: Double
        var fontFile: String?
        var size: Double
        /// The line ends here with a hyphen that layout added: drawn, but not part of the text.
        var hyphen: Bool
        var rightToLeft: Bool
    }

    struct Line {
        var words: [Word]
        /// The line's text as a reader hears it, for the narration's timing.
        var text: String
    }

    /// Consecutive lines of one paragraph of one text box.
    struct Paragraph {
        var lines: [Line]
        var structure: TextStructure
        var color: Color
    }

    var paragraphs: [Paragraph]

    /// Whether a text is set as live text; the rest (a spine's turned title, a placeholder's
    /// caption, a cover medallion's letter) stays in the picture of the page.
    static func isLive(_ box: TextBox) -> Bool { box.isBookText && !box.turnedClockwise && !box.lines.isEmpty }

    init(_ page: PageNode) {
        var paragraphs: [Paragraph] = []
        for box in page.textBoxes where Self.isLive(box) {
            let runs = box.layout.glyphLines
            var current: (number: Int, lines: [Line])?
            for i in box.lines {
                let line = box.layout.lines[i]
                let made = runs.map { Self.line(line, runs: $0[i], box: box) } ?? Self.fallbackLine(line, box: box)
                if let c = current, c.number == line.paragraph {
                    current!.lines.append(made)
                } else {
                    if let c = current, !c.lines.isEmpty { paragraphs.append(Paragraph(lines: c.lines, structure: box.structure, color: box.color)) }
                    current = (line.paragraph, [made])
                }
            }
            if let c = current, !c.lines.isEmpty { paragraphs.append(Paragraph(lines: c.lines, structure: box.structure, color: box.color)) }
        }
        self.paragraphs = paragraphs.map { p in
            var p = p
            p.lines.removeAll { $0.words.isEmpty }
            return p
        }.filter { !$0.lines.isEmpty }
    }

    /// The words of a line from its glyph runs: each starts where its first glyph is drawn.
    private static func line(_ line: TextLine, runs: [GlyphRun], box: TextBox) -> Line {
        let scale = Double(PANGO_SCALE)
        let originX = box.frame.x + line.x
        let baseline = box.frame.y + line.baseline - box.layoutTop
        var words: [Word] = []
        for run in runs where !run.colorGlyphs || !run.text.isEmpty {
            let bytes = run.text.map { UInt8(bitPattern: $0) }
            let glyphCount = run.glyphs.count
            var byte = 0, glyph = 0
            var word: (bytes: [UInt8], x: Double?) = ([], nil)
            func finish() {
                defer { word = ([], nil) }
                let text = String(decoding: word.bytes, as: UTF8.self)
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty, let x = word.x else { return }
                words.append(Word(text: text, x: originX + x, baseline: baseline + Double(run.y) / scale,
                                  fontFile: run.fontFile, size: run.fontSize, hyphen: false, rightToLeft: run.backward))
            }
            for cluster in run.clusters {
                let n = Int(cluster.num_bytes), g = Int(cluster.num_glyphs)
                let text = Array(bytes[min(byte, bytes.count)..<min(byte + n, bytes.count)])
                // A backward run's clusters count its glyphs from the last.
                let glyphRange = run.backward ? (glyphCount - glyph - g)..<(glyphCount - glyph) : glyph..<(glyph + g)
                let left = glyphRange.isEmpty || glyphRange.lowerBound < 0 || glyphRange.upperBound > glyphCount ? nil
                    : run.glyphs[glyphRange].map { Double(run.x + $0.x) / scale }.min()
                byte += n; glyph += g
                if text == [0x20] || text == [0x09] {
                    word.bytes += text
                    finish()
                    continue
                }
                word.bytes += text
                if let left { word.x = min(word.x ?? left, left) }
            }
            finish()
            if run.endsInAddedHyphen, var last = words.last, last.text.hasSuffix("-") {
                last.text.removeLast()
                last.hyphen = true
                words[words.count - 1] = last
            }
        }
        return Line(words: words, text: words.map(\.text).joined())
    }

    /// A line only Pango can draw (a glyph no font has): its text at the line's start, in the
    /// text's own font, since its runs are not to be had.
    private static func fallbackLine(_ line: TextLine, box: TextBox) -> Line {
        let text = line.text.replacingOccurrences(of: "\u{AD}", with: "")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return Line(words: [], text: "") }
        let word = Word(text: text, x: box.frame.x + line.x, baseline: box.frame.y + line.baseline - box.layoutTop,
                        fontFile: box.layout.fontFiles.sorted().first, size: box.layout.style.size, hyphen: false, rightToLeft: false)
        return Line(words: [word], text: text)
    }
}
