import Foundation
import CGraphics
import CShim

/// Sets text with Pango against the private font set. One per thread or task, never shared:
/// Pango font maps and contexts hang or crash when two threads use them at once. Layouts it
/// returns carry Pango objects of this Typesetter: use them with Pango on its thread, or on another
/// only once this one is done with it; their glyph runs can be drawn anywhere (see `TextPrefetch`).
///
/// Layout is device independent (no hinting, no glyph-position rounding, 72 units per inch), so a
/// TextLayout breaks the same way whether it is drawn into a PDF or a 150-dpi PNG.
public final class Typesetter {
    public let fonts: FontLibrary
    /// BCP 47 tag, e.g. "en-US".
    public let language: String
    /// The folder of hyphenation exceptions (see `HyphenationExceptions`); nil for none.
    public let hyphenationExceptions: URL?
    private let session: PangoSession
    private var hyphenatorLoaded = false
    private var loadedHyphenator: Hyphenator?
    /// Pango's family list per style family: made once, not for each of a book's paragraphs.
    private var familyLists: [String: String] = [:]

    public init(fonts: FontLibrary, language: String, hyphenationExceptions: URL? = nil) {
        self.fonts = fonts
        self.language = language
        self.hyphenationExceptions = hyphenationExceptions
        self.session = PangoSession(library: fonts, language: language)
    }

    /// The hyphenation dictionary for the language, loaded on first use; nil when none is installed.
    public var hyphenator: Hyphenator? {
        if !hyphenatorLoaded {
            hyphenatorLoaded = true
            loadedHyphenator = Hyphenator(language: language,
                                          exceptions: hyphenationExceptions.flatMap { HyphenationExceptions.forLanguage(language, in: $0) })
        }
        return loadedHyphenator
    }

    /// Lays out `text` in a column `width` points wide (zero or less: no wrapping).
    /// Paragraphs are separated by blank lines; a single newline inside a paragraph is kept as a
    /// line break. With `hyphenate`, soft hyphens are inserted from the language's dictionary
    /// when there is one (`TextLayout.hyphenated` says whether there was). Justified and
    /// start-aligned text is broken into lines as `lineBreaking` says; centred text into even
    /// lines (`BalancedLines`), end-aligned text first-fit.
    public func layout(_ text: String, style: TextStyle, width: Double, alignment: TextAlignment, hyphenate: Bool,
                       lineBreaking: LineBreaking = .optimal) -> TextLayout {
        let request = TextRequest(text: text, style: style, width: width, alignment: alignment, hyphenate: hyphenate,
                                  lineBreaking: lineBreaking)
        if let prepared = prepared?.layout(request, make: makeLayout) { return prepared }
        guard request.text.utf8.count < Self.rememberedBytes else { return makeLayout(request) }
        if let known = remembered[request] { return known }
        let made = makeLayout(request)
        if remembered.count >= Self.rememberedCount { remembered.removeAll(keepingCapacity: true) }
        remembered[request] = made
        return made
    }

    /// Short texts set here lately, by request. Placing a picture page's words tries each text
    /// position, and fitting a page each size, with the same few texts: each is set once. A
    /// layout is never changed once made, so one can stand on several pages.
    private var remembered: [TextRequest: TextLayout] = [:]

    /// Lets go of the texts remembered: when the pages using them are drawn and dropped, or the
    /// typesetter is set to lay out otherwise.
    func forgetRemembered() { remembered.removeAll(keepingCapacity: true) }

    /// A style's average character width (see `MeasureFit`), by style: asked for by every picture
    /// page, and kept here beyond the remembered texts.
    var averageCharacterWidths: [TextStyle: Double] = [:]
    static let rememberedBytes = TextPrefetch.minimumBytes
    static let rememberedCount = 256

    /// Whether total fit sets a block's lines from its measurement where it can (see `BrokenLines`)
    /// rather than having Pango lay it out again in the lines chosen: off only to compare the two.
    var setsLinesFromMeasurement = true { didSet { forgetRemembered() } }

    /// Texts helper threads are laying out ahead (see `TextPrefetch`).
    var prepared: PreparedTexts?

    /// Waits for the helpers: afterwards every layout handed out may be used with Pango here.
    func finishPrepared() { prepared?.finish() }

    /// Texts laid out by this typesetter so far, for tests of how much work layout takes.
    private(set) var layoutsMade = 0

    func makeLayout(_ request: TextRequest) -> TextLayout {
        layoutsMade += 1
        let (text, style, width, alignment) = (request.text, request.style, request.width, request.alignment)
        var laidOut = Self.normalizedParagraphs(text)
        var hyphenated = false
        if request.hyphenate, let hyphenator {
            laidOut = hyphenator.hyphenate(laidOut)
            hyphenated = true
        }

        if alignment == .center && width > 0 {
            laidOut = BalancedLines.balanced(laidOut, style: style, width: width, typesetter: self)
        }
        let optimal = request.lineBreaking == .optimal && width > 0 && (alignment == .justify || alignment == .start)
        var blocks: [TextLayout.Block] = []
        // Pango indents every paragraph of a layout alike, and so does total fit: a first paragraph
        // set flush is a block of its own.
        var ranges = Self.blocks(of: laidOut)
        var firstStyle = style
        if !style.indentsFirstParagraph && style.firstLineIndent != 0 {
            ranges = Self.firstParagraphApart(ranges, of: laidOut)
            firstStyle.firstLineIndent = 0
        }
        if optimal {
            // Each block's text loses the soft hyphens no line ends with, so the text is put
            // together again from the blocks.
            func setBlocks(setsLines: Bool) -> [UInt8] {
                var out: [UInt8] = []
                out.reserveCapacity(laidOut.utf8.count)
                for (i, range) in ranges.enumerated() {
                    if !blocks.isEmpty { out.append(0x0A) }
                    let block = makeOptimalLayout(laidOut, bytes: range, style: i == 0 ? firstStyle : style, width: width,
                                                  alignment: alignment, byteOffset: out.count, setsLines: setsLines)
                    out.append(contentsOf: block.text)
                    blocks.append(block.block)
                }
                return out
            }
            var out = setBlocks(setsLines: true)
            // A text Pango must draw (a glyph no font has) is drawn line by line with Pango: all of
            // its lines are then Pango's.
            if blocks.contains(where: { $0.broken != nil })
                && blocks.contains(where: { $0.broken == nil && pango_layout_get_unknown_glyphs_count($0.layout) > 0 }) {
                for block in blocks { shim_object_unref(UnsafeMutableRawPointer(block.layout)) }
                blocks = []
                out = setBlocks(setsLines: false)
            }
            laidOut = String(decoding: out, as: UTF8.self)
        } else {
            blocks = ranges.enumerated().map { i, range in
                makePangoLayout(laidOut, bytes: range, style: i == 0 ? firstStyle : style, width: width, alignment: alignment)
            }
        }
        let (lines, pangoLines, height) = laidOut.isEmpty ? ([], [], 0)
            : Self.measureLines(blocks, text: laidOut, paragraphSpacing: style.paragraphSpacing, pitch: pitch(style))
        return TextLayout(text: laidOut, blocks: blocks, lines: lines, pangoLines: pangoLines, height: height,
                          unknownGlyphCount: blocks.reduce(0) { $0 + Int(pango_layout_get_unknown_glyphs_count($1.layout)) },
                          hasPrivateUse: Self.hasPrivateUse(laidOut),
                          fontFiles: fontFiles(blocks), style: style, width: width, alignment: alignment,
                          hyphenated: hyphenated)
    }

    /// The text's paragraphs in runs that each become one Pango layout, as UTF-8 byte ranges: a run
    /// starts at every paragraph with a strong direction of its own and takes the neutral ones
    /// after it, which Pango then sets in that direction, as it would in one layout of the whole
    /// text. One layout per paragraph rather than per text because Pango 1.50 counts the characters
    /// before each paragraph it lays out (`pango_itemize_with_font`) and finds a line by walking
    /// the list: both grow with the square of a long chapter.
    static func blocks(of text: String) -> [Range<Int>] {
        let bytes = text.utf8
        guard !bytes.isEmpty else { return [0..<0] }
        var runs: [Range<Int>] = []
        var runStart = 0, paragraphStart = 0
        bytes.withContiguousStorageIfAvailable { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            for i in 0...buffer.count where i == buffer.count || buffer[i] == 0x0A {
                if paragraphStart > runStart,
                   shim_paragraph_direction(base + paragraphStart, Int32(i - paragraphStart)) != PANGO_DIRECTION_NEUTRAL {
                    runs.append(runStart..<(paragraphStart - 1))
                    runStart = paragraphStart
                }
                paragraphStart = i + 1
            }
        }
        runs.append(runStart..<bytes.count)
        return runs
    }

    /// `blocks` with the text's first paragraph a block of its own. Kept in its block when the
    /// paragraph after it has no direction of its own and would lose the first one's.
    static func firstParagraphApart(_ blocks: [Range<Int>], of text: String) -> [Range<Int>] {
        guard let first = blocks.first else { return blocks }
        var text = text
        return text.withUTF8 { bytes -> [Range<Int>] in
            guard let newline = bytes[first].firstIndex(of: 0x0A) else { return blocks }
            let rest = (newline + 1)..<first.upperBound
            let restEnd = bytes[rest].firstIndex(of: 0x0A) ?? rest.upperBound
            let direction = { (range: Range<Int>) in
                bytes.withMemoryRebound(to: CChar.self) {
                    shim_paragraph_direction($0.baseAddress! + range.lowerBound, Int32(range.count))
                }
            }
            if direction(rest.lowerBound..<restEnd) == PANGO_DIRECTION_NEUTRAL
                && direction(first.lowerBound..<newline) == PANGO_DIRECTION_RTL { return blocks }
            return [first.lowerBound..<newline, rest] + blocks.dropFirst()
        }
    }

    private func familyList(_ family: String) -> String {
        if let list = familyLists[family] { return list }
        let list = fonts.familyList(for: family, language: language)
        familyLists[family] = list
        return list
    }

    /// A Pango layout of `text`'s UTF-8 `bytes`, set in `style` in a column `width` points wide.
    func makePangoLayout(_ text: String, bytes: Range<Int>, style: TextStyle, width: Double,
                         alignment: TextAlignment) -> TextLayout.Block {
        let layout = newPangoLayout(style: style, width: width, alignment: alignment)
        let attrs = attributes(style)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        setText(layout, text, bytes: bytes)
        if alignment == .justify && width > 0 { Justification.justify(layout, width: Self.units(width)) }
        return TextLayout.Block(layout: layout, byteOffset: bytes.lowerBound)
    }

    /// The hyphen's width per style, for total fit (see `hyphenWidth`).
    var hyphenWidths: [TextStyle: Double] = [:]
    /// Per style (see `pitch`).
    private var pitches: [TextStyle: (height: Double, baseline: Double)] = [:]

    func setText(_ layout: OpaquePointer, _ text: String, bytes: Range<Int>) {
        // Plain text, never markup: "<" and "&" are characters.
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                pango_layout_set_text(layout, chars.baseAddress.map { $0 + bytes.lowerBound }, Int32(bytes.count))
            }
        }
    }

    func newPangoLayout(style: TextStyle, width: Double, alignment: TextAlignment) -> OpaquePointer {
        guard let layout = pango_layout_new(session.context) else { fatalError("pango_layout_new failed") }
        let desc = session.fontDescription(family: familyList(style.family), size: style.size,
                                           weight: style.weight, italic: style.italic)
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)

        pango_layout_set_width(layout, width > 0 ? Self.units(width) : -1)
        // WORD_CHAR: a word wider than the column (a long URL) is broken between characters instead
        // of overflowing it.
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_auto_dir(layout, 1)
        switch alignment {
        case .start, .justify: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .end: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        // Justification is done after breaking, by Justification (Pango 1.50.12 overshoots at hyphens).
        pango_layout_set_justify(layout, 0)
        pango_layout_set_indent(layout, Self.units(style.firstLineIndent))
        return layout
    }

    func attributes(_ style: TextStyle) -> OpaquePointer {
        // Line pitch is a per-run absolute line height (Pango 1.50), which works like CSS: each run's
        // box becomes lineHeight × size tall with the leading split above and below, and lines
        // stack box on box. pango_layout_set_line_spacing would instead multiply each line's font
        // metrics height, which Pango reports as about 1.5 pt for Noto Color Emoji at 12 pt (it
        // applies the bitmap strike's scale twice): a line of emoji would collapse.
        let attrs = pango_attr_list_new()
        if style.lineHeight > 0 {
            pango_attr_list_insert(attrs, pango_attr_line_height_new_absolute(Self.units(style.lineHeight * style.size)))
        }
        if style.letterSpacing != 0 {
            pango_attr_list_insert(attrs, pango_attr_letter_spacing_new(Self.units(style.letterSpacing)))
        }
        return attrs!
    }

    // MARK: - Text preparation

    /// Blank lines separate paragraphs (Pango's "\n"); other newlines become U+2028 LINE SEPARATOR,
    /// which breaks the line without starting a paragraph (no indent, same direction).
    static func normalizedParagraphs(_ text: String) -> String {
        let unified = unifiedNewlines(text)
        // On the bytes: a chapter is a few hundred kilobytes, and splitting it into substrings and
        // joining them again cost more than laying out its first page.
        var out: [UInt8] = []
        let copied: Void? = unified.utf8.withContiguousStorageIfAvailable { bytes in
            out.reserveCapacity(bytes.count)
            var wrote = false, blankSince = false, lineStart = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<i])
                lineStart = i + 1
                if isBlank(line) {
                    blankSince = true
                    continue
                }
                if wrote { out.append(contentsOf: blankSince ? [0x0A] : [0xE2, 0x80, 0xA8]) }
                out.append(contentsOf: line)
                wrote = true
                blankSince = false
            }
        }
        if copied == nil {
            var native = unified
            native.makeContiguousUTF8()
            return normalizedParagraphs(native)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// CR LF and CR as LF, U+2029 PARAGRAPH SEPARATOR as a blank line; the text itself when it has
    /// none of them. On the bytes: curly quotes and dashes share U+2029's first byte, so a search
    /// through Foundation ran over most chapters of real prose.
    static func unifiedNewlines(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var i = 0
            while i < bytes.count, bytes[i] != 0x0D, !(bytes[i] == 0xE2 && i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA9) {
                i += 1
            }
            guard i < bytes.count else { return nil }
            var out = [UInt8](bytes[..<i])
            out.reserveCapacity(bytes.count + 16)
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x0D {
                    out.append(0x0A)
                    i += (i + 1 < bytes.count && bytes[i + 1] == 0x0A) ? 2 : 1
                } else if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA9 {
                    out.append(contentsOf: [0x0A, 0x0A])
                    i += 3
                } else {
                    out.append(b)
                    i += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    /// Only whitespace (Unicode's, so a line of no-break spaces is blank too).
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line {
            if byte >= 0x80 { return String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace) }
            if byte != 0x20 && !(0x09...0x0D).contains(byte) { return false }
        }
        return true
    }

    /// On the bytes: a private-use character's UTF-8 starts with EE, EF 80–A3, F3 B0–BF or F4.
    static func hasPrivateUse(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for i in bytes.indices {
                switch bytes[i] {
                case 0xEE, 0xF4: return true
                case 0xEF where i + 1 < bytes.count && bytes[i + 1] <= 0xA3: return true
                case 0xF3 where i + 1 < bytes.count && bytes[i + 1] >= 0xB0: return true
                default: continue
                }
            }
            return false
        }
    }

    // MARK: - Measuring

    /// The line pitch of `style` and where the baseline stands in a line box of that height, as
    /// Pango sets a line of the style's own font; nil when the style keeps the fonts' natural line
    /// height.
    func pitch(_ style: TextStyle) -> (height: Double, baseline: Double)? {
        guard style.lineHeight > 0 else { return nil }
        if let known = pitches[style] { return known }
        let layout = newPangoLayout(style: style, width: -1, alignment: .start)
        let attrs = attributes(style)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        pango_layout_set_text(layout, "x", -1)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = Double(PANGO_SCALE)
        let found = (height: style.lineHeight * style.size,
                     baseline: Double(pango_layout_get_baseline(layout) - logical.y) / scale)
        shim_object_unref(UnsafeMutableRawPointer(layout))
        pitches[style] = found
        return found
    }

    /// Line boxes are Pango's logical line extents: with no extra spacing Pango starts each line
    /// where the previous one ends, so the boxes tile, and the first starts at 0. Each block's
    /// lines continue where the block before ended, as the lines of one layout would.
    /// `paragraphSpacing` goes into the box of each paragraph's last line (but the text's last), so
    /// the boxes still tile and a page that starts with a paragraph starts with no gap.
    ///
    /// With a `pitch`, every box is that tall and its baseline where a line of the style's own font
    /// has it. Pango makes each run's box the pitch tall but centres the leading on that run's
    /// font, so a line whose runs come from fonts of other proportions (CJK, emoji) gets a taller
    /// union of boxes and a lower baseline: it would push every line after it off the pitch.
    private static func measureLines(_ blocks: [TextLayout.Block], text: String, paragraphSpacing: Double = 0,
                                     pitch: (height: Double, baseline: Double)? = nil)
        -> ([TextLine], [TextLayout.LineSource], Double) {
        struct Raw { var start: Int, length: Int, logical: PangoRectangle, ink: PangoRectangle, baseline: Int32 }
        var raws: [Raw] = []
        var pangoLines: [TextLayout.LineSource] = []
        var blockTop: Int32 = 0
        for block in blocks {
            if let broken = block.broken {
                // Every box is the pitch tall (`BrokenLines` sets only text with one): only the
                // baseline's place in it and the ink above and below it count (see below).
                let height = Self.units(pitch?.height ?? 0), baseline = Self.units(pitch?.baseline ?? 0)
                for (i, line) in broken.lines.enumerated() {
                    var ink = line.ink
                    ink.x += line.x
                    ink.y += blockTop + baseline
                    raws.append(Raw(start: block.byteOffset + line.start, length: line.length,
                                    logical: PangoRectangle(x: line.x, y: blockTop, width: line.width, height: height),
                                    ink: ink, baseline: blockTop + baseline))
                    pangoLines.append(.broken(broken, i))
                    blockTop += height
                }
                continue
            }
            guard let iter = pango_layout_get_iter(block.layout) else { continue }
            var bottom = blockTop
            repeat {
                var logical = PangoRectangle(), ink = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, &ink, &logical)
                guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
                logical.y += blockTop
                ink.y += blockTop
                // A right-aligned line sits against the layout's width, which is wider than the
                // column by the block's overhang.
                if block.overhang != 0 && line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue {
                    logical.x -= block.overhang
                    ink.x -= block.overhang
                }
                bottom = logical.y + logical.height
                raws.append(Raw(start: block.byteOffset + Int(line.pointee.start_index), length: Int(line.pointee.length),
                                logical: logical, ink: ink, baseline: blockTop + pango_layout_iter_get_baseline(iter)))
                pangoLines.append(.pango(line))
            } while pango_layout_iter_next_line(iter) != 0
            pango_layout_iter_free(iter)
            blockTop = bottom
        }
        guard !raws.isEmpty else { return ([], [], 0) }

        let bytes = Array(text.utf8)
        let scale = Double(PANGO_SCALE)
        // Paragraph of each line: the count of "\n" before its first byte.
        var paragraphOf: [Int] = []
        var paragraph = 0, scanned = 0
        for r in raws {
            while scanned < min(r.start, bytes.count) {
                if bytes[scanned] == 0x0A { paragraph += 1 }
                scanned += 1
            }
            paragraphOf.append(paragraph)
        }
        var counts: [Int: Int] = [:]
        for p in paragraphOf { counts[p, default: 0] += 1 }

        var lines: [TextLine] = []
        var indexInParagraph = 0
        var shift = 0.0
        for (i, r) in raws.enumerated() {
            if i > 0 && paragraphOf[i] != paragraphOf[i - 1] { indexInParagraph = 0 }
            let end = min(bytes.count, r.start + r.length)
            let lineText = String(decoding: bytes[min(r.start, end)..<end], as: UTF8.self)
            let gap = paragraphSpacing > 0 && i + 1 < raws.count && paragraphOf[i + 1] != paragraphOf[i] ? paragraphSpacing : 0
            var top = Double(r.logical.y) / scale, baseline = Double(r.baseline) / scale
            var height = Double(r.logical.height) / scale
            var moved = 0.0
            if let pitch {
                // `shift` carries the gaps alone: the boxes before are all `pitch.height` tall.
                top = Double(i) * pitch.height
                height = pitch.height
                moved = top + pitch.baseline - baseline
                baseline += moved
            }
            lines.append(TextLine(byteRange: min(r.start, end)..<end, text: lineText, top: top + shift,
                                  baseline: baseline + shift, height: height + gap,
                                  width: Double(r.logical.width) / scale, x: Double(r.logical.x) / scale,
                                  paragraph: paragraphOf[i], indexInParagraph: indexInParagraph,
                                  paragraphLineCount: counts[paragraphOf[i]] ?? 1,
                                  endsWithSoftHyphen: lineText.unicodeScalars.last == "\u{00AD}",
                                  ink: Rect(x: Double(r.ink.x) / scale, y: Double(r.ink.y) / scale + moved + shift,
                                            width: Double(r.ink.width) / scale, height: Double(r.ink.height) / scale)))
            indexInParagraph += 1
            shift += gap
        }
        return (lines, pangoLines, lines.last.map(\.bottom) ?? 0)
    }

    private func fontFiles(_ blocks: [TextLayout.Block]) -> Set<String> {
        var files = Set<String>()
        var seen = Set<UnsafeMutableRawPointer>()
        func note(_ run: UnsafeMutablePointer<PangoGlyphItem>) {
            guard let font = run.pointee.item.pointee.analysis.font,
                  seen.insert(UnsafeMutableRawPointer(font)).inserted,
                  let path = shim_font_file(font) else { return }
            files.insert(fonts.realPath(String(cString: path)))
            g_free(path)
        }
        for block in blocks {
            if let broken = block.broken {
                for line in broken.lines { line.runs.forEach(note) }
                continue
            }
            guard let iter = pango_layout_get_iter(block.layout) else { continue }
            repeat {
                if let run = pango_layout_iter_get_run_readonly(iter) { note(run) }
            } while pango_layout_iter_next_run(iter) != 0
            pango_layout_iter_free(iter)
        }
        return files
    }

    static func units(_ points: Double) -> Int32 {
        Int32((points * Double(PANGO_SCALE)).rounded())
    }
}
