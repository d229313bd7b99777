import CGraphics
import Glibc

/// A block's lines set from what Pango found when it measured the block in one line per paragraph
/// (see `OptimalLines`): its items cut where total fit broke the lines, each piece shaped as Pango's
/// own line breaking shapes it (`pango_shape_item` on the text with its soft hyphens, the hyphen
/// asked for where a line ends inside a word) and finished as Pango 1.50.12 finishes a wrapped line
/// (the space a line ends with loses its width). The same glyphs Pango would set, without laying the
/// block out a second time: itemizing, finding breaks and fitting lines again cost as much as the
/// measuring itself.
///
/// Only for blocks whose lines Pango would finish with nothing else (see `init`); any other block is
/// laid out again by Pango. Pango objects: made and released like the block's layout.
final class BrokenLines {
    struct Line {
        /// Bytes of `text`.
        let start: Int
        let length: Int
        let paragraphStart: Bool
        let lastOfRun: Bool
        /// The line's runs in order (left to right: every item is).
        let runs: [UnsafeMutablePointer<PangoGlyphItem>]
        /// Where the line starts (the indent), its logical width and its ink, in Pango units; the ink
        /// relative to the line's start and baseline, as `pango_layout_line_get_extents` gives it.
        let x: Int32
        fileprivate(set) var width: Int32 = 0
        fileprivate(set) var ink = PangoRectangle()
    }

    /// The block's text, as `OptimalLines.text`, NUL-terminated: the glyph items index it.
    let text: UnsafeMutablePointer<CChar>
    let byteCount: Int
    private(set) var lines: [Line] = []

    /// Nil when Pango would finish some line of the block with more than the pieces' glyphs: a
    /// paragraph in several fonts or scripts (a run's baseline may shift against the line's
    /// first), right to left, with a tab, a line separator, a hyphenation point character or
    /// letter spacing, an attribute that shapes or moves glyphs, or a glyph no font has.
    init?(measured layout: OpaquePointer, plan: OptimalLines, style: TextStyle, justifyTo width: Int32?) {
        guard style.letterSpacing == 0, style.lineHeight > 0, pango_layout_get_unknown_glyphs_count(layout) == 0,
              let measuredText = pango_layout_get_text(layout) else { return nil }
        var attrCount: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &attrCount) else { return nil }
        // A tab, U+2028 LINE SEPARATOR and U+2027 HYPHENATION POINT each change how Pango finishes a line.
        if plan.text.contains(0x09) || Self.contains(plan.text, [0xE2, 0x80, 0xA8]) || Self.contains(plan.text, [0xE2, 0x80, 0xA7]) {
            return nil
        }

        // The measured lines' items, in order: one line per run of the plan.
        var runItems: [[UnsafeMutablePointer<PangoGlyphItem>]] = []
        var list = pango_layout_get_lines_readonly(layout)
        while let node = list {
            list = node.pointee.next
            guard let line = node.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) else { continue }
            var items: [UnsafeMutablePointer<PangoGlyphItem>] = []
            var runs = line.pointee.runs
            while let runNode = runs {
                runs = runNode.pointee.next
                guard let run = runNode.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                      Self.isPlain(run, like: items.first) else { return nil }
                items.append(run)
            }
            runItems.append(items)
        }

        byteCount = plan.text.count
        text = UnsafeMutablePointer<CChar>.allocate(capacity: byteCount + 1)
        plan.text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text.initialize(from: $0.baseAddress!, count: byteCount) }
        }
        text[byteCount] = 0

        let rounds = pango_context_get_round_glyph_positions(pango_layout_get_context(layout)) != 0
        let indent = pango_layout_get_indent(layout)
        let measuredBase = UnsafeRawPointer(measuredText).assumingMemoryBound(to: UInt8.self)
        let measuredCount = strlen(measuredText)
        var chosen = plan.lines[...]
        var counted = (bytes: 0, chars: 0)  // characters before `bytes` in the measured text
        for items in runItems {
            // The run's characters, item by item, in characters of the measured text.
            guard let first = items.first else { continue }
            let offset = Int(first.pointee.item.pointee.offset)
            for i in counted.bytes..<offset where measuredBase[i] & 0xC0 != 0x80 { counted.chars += 1 }
            counted.bytes = offset
            var itemStart = counted.chars
            var spans: [(run: UnsafeMutablePointer<PangoGlyphItem>, item: UnsafeMutablePointer<PangoItem>, start: Int, end: Int)] = []
            for run in items {
                let item = run.pointee.item!
                spans.append((run, item, itemStart, itemStart + Int(item.pointee.num_chars)))
                itemStart += Int(item.pointee.num_chars)
            }
            let runEnd = itemStart
            while let line = chosen.first, line.start < runEnd {
                chosen.removeFirst()
                var pieces: [UnsafeMutablePointer<PangoGlyphItem>] = []
                for span in spans where span.start < line.end && span.end > line.start {
                    let start = max(span.start, line.start), end = min(span.end, line.end)
                    let piece = pango_item_copy(span.item)!
                    piece.pointee.offset = Int32(plan.byteOf[start])
                    piece.pointee.length = Int32(plan.byteOf[end] - plan.byteOf[start])
                    // A soft hyphen put in where the line ends is the piece's last character.
                    piece.pointee.num_chars = Int32(end - start + (end == line.end && line.softHyphen ? 1 : 0))
                    let needHyphen = UInt8(PANGO_ANALYSIS_FLAG_NEED_HYPHEN)
                    piece.pointee.analysis.flags &= ~needHyphen
                    if end == line.end && line.needsHyphen { piece.pointee.analysis.flags |= needHyphen }
                    let glyphs = pango_glyph_string_new()!
                    let shaping = rounds ? PANGO_SHAPE_ROUND_POSITIONS : PANGO_SHAPE_NONE
                    if !(end == line.end && line.softHyphen),
                       Self.sameContext(text, plan.byteOf[start], plan.byteOf[end], byteCount,
                                        measuredBase, plan.measuredByteOf[start], plan.measuredByteOf[end], measuredCount) {
                        // Shaped in the measured text, where the shaping cache holds the paragraph
                        // and hands out the piece's glyphs: HarfBuzz sees the same characters and
                        // context either way. When the cache says it would hand out exactly the
                        // measured glyphs, they are taken as they are.
                        let (from, to) = (plan.measuredByteOf[start], plan.measuredByteOf[end])
                        if !(end == line.end && line.needsHyphen),
                           Self.measuredGlyphsAreExact(span.run, measuredText, measuredCount, from, to) {
                            Self.copy(span.run, bytes: from..<to, into: glyphs)
                        } else {
                            piece.pointee.offset = Int32(from)
                            pango_shape_item(piece, measuredText, Int32(measuredCount), nil, glyphs, shaping)
                        }
                        piece.pointee.offset = Int32(plan.byteOf[start])
                    } else {
                        pango_shape_item(piece, text, Int32(byteCount), nil, glyphs, shaping)
                    }
                    let glyphItem = g_slice_alloc0(gsize(MemoryLayout<PangoGlyphItem>.size))!.assumingMemoryBound(to: PangoGlyphItem.self)
                    glyphItem.pointee.item = piece
                    glyphItem.pointee.glyphs = glyphs
                    pieces.append(glyphItem)
                }
                // A wrapped line's last space, when it is a cluster of its own, is not drawn
                // (Pango's `zero_line_final_space`); the soft hyphen a line may end with is no space.
                if !line.lastOfRun, let last = pieces.last, let glyphs = last.pointee.glyphs,
                   glyphs.pointee.num_glyphs >= 1, line.end > 0, !line.softHyphen, attrs[line.end - 1].is_white != 0 {
                    let g = Int(glyphs.pointee.num_glyphs) - 1
                    if g == 0 || glyphs.pointee.log_clusters[g] != glyphs.pointee.log_clusters[g - 1] {
                        glyphs.pointee.glyphs[g].geometry.width = 0
                        glyphs.pointee.glyphs[g].glyph = PANGO_GLYPH_EMPTY
                    }
                }
                let x: Int32 = line.paragraphStart ? max(indent, 0) : max(-indent, 0)
                lines.append(Line(start: plan.byteOf[line.start], length: plan.byteOf[line.end] - plan.byteOf[line.start],
                                  paragraphStart: line.paragraphStart, lastOfRun: line.lastOfRun, runs: pieces, x: x))
            }
        }
        guard chosen.isEmpty else { return nil }
        if let width { justify(to: width, indent: indent, measured: attrs, plan: plan) }
        for i in lines.indices { measure(&lines[i]) }
    }

    deinit {
        for line in lines { for run in line.runs { pango_glyph_item_free(run) } }
        text.deallocate()
    }

    /// A run Pango's line breaking would finish with its glyphs alone, in the font and script of
    /// the paragraph's first run.
    private static func isPlain(_ run: UnsafeMutablePointer<PangoGlyphItem>, like first: UnsafeMutablePointer<PangoGlyphItem>?) -> Bool {
        guard let item = run.pointee.item else { return false }
        let analysis = item.pointee.analysis
        guard analysis.level == 0, analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_CENTERED_BASELINE) == 0,
              run.pointee.y_offset == 0, run.pointee.start_x_offset == 0, run.pointee.end_x_offset == 0 else { return false }
        if let first, let other = first.pointee.item?.pointee.analysis {
            guard other.font == analysis.font, other.script == analysis.script else { return false }
        }
        var attr = analysis.extra_attrs
        while let a = attr {
            attr = a.pointee.next
            guard let attribute = a.pointee.data?.assumingMemoryBound(to: PangoAttribute.self),
                  [PANGO_ATTR_LINE_HEIGHT.rawValue, PANGO_ATTR_ABSOLUTE_LINE_HEIGHT.rawValue]
                    .contains(attribute.pointee.klass.pointee.type.rawValue) else { return false }
        }
        return true
    }

    /// Whether shaping bytes `from..<to` of the measured `run` would give its glyphs there.
    private static func measuredGlyphsAreExact(_ run: UnsafeMutablePointer<PangoGlyphItem>, _ text: UnsafePointer<CChar>,
                                               _ count: Int, _ from: Int, _ to: Int) -> Bool {
        guard let pieceIsCut = ShapingCacheHook.pieceIsCut, let item = run.pointee.item, let font = item.pointee.analysis.font,
              let hbFont = pango_font_get_hb_font(font) else { return false }
        let start = Int(item.pointee.offset)
        return pieceIsCut(hbFont, text, Int32(count), UInt32(start), UInt32(start + Int(item.pointee.length)),
                          UInt32(from), UInt32(to)) != 0
    }

    /// The measured glyphs of bytes `bytes` of the text (whole clusters of the left-to-right
    /// `run`) into `glyphs`, their clusters counted from the piece's start, as shaping gives them.
    private static func copy(_ run: UnsafeMutablePointer<PangoGlyphItem>, bytes: Range<Int>,
                             into glyphs: UnsafeMutablePointer<PangoGlyphString>) {
        let source = run.pointee.glyphs!
        let offset = Int32(bytes.lowerBound) - run.pointee.item.pointee.offset
        let limit = Int32(bytes.upperBound) - run.pointee.item.pointee.offset
        let n = Int(source.pointee.num_glyphs)
        var first = 0
        while first < n && source.pointee.log_clusters[first] < offset { first += 1 }
        var last = first
        while last < n && source.pointee.log_clusters[last] < limit { last += 1 }
        pango_glyph_string_set_size(glyphs, Int32(last - first))
        for k in 0..<(last - first) {
            glyphs.pointee.glyphs[k] = source.pointee.glyphs[first + k]
            glyphs.pointee.log_clusters[k] = source.pointee.log_clusters[first + k] - offset
        }
        if last > first { glyphs.pointee.glyphs[0].attr.is_cluster_start = 1 }
    }

    /// Whether HarfBuzz, given the piece `a..<aEnd` of text `textA` or `b..<bEnd` of `textB`,
    /// sees the same: the same bytes, and the same five characters of context on each side
    /// (HarfBuzz's context length), which soft hyphens put in at line ends may change.
    private static func sameContext(_ textA: UnsafePointer<CChar>, _ a: Int, _ aEnd: Int, _ countA: Int,
                                    _ textB: UnsafePointer<UInt8>, _ b: Int, _ bEnd: Int, _ countB: Int) -> Bool {
        let bytesA = UnsafeRawPointer(textA).assumingMemoryBound(to: UInt8.self)
        func back(_ bytes: UnsafePointer<UInt8>, _ i: Int) -> Int {
            var i = i, chars = 0
            while i > 0 && chars < 5 {
                i -= 1
                if bytes[i] & 0xC0 != 0x80 { chars += 1 }
            }
            return i
        }
        func forward(_ bytes: UnsafePointer<UInt8>, _ i: Int, _ count: Int) -> Int {
            var i = i, chars = 0
            while i < count && chars < 5 {
                i += 1
                if i == count || bytes[i] & 0xC0 != 0x80 { chars += 1 }
            }
            return i
        }
        let fromA = back(bytesA, a), fromB = back(textB, b)
        let toA = forward(bytesA, aEnd, countA), toB = forward(textB, bEnd, countB)
        return a - fromA == b - fromB && aEnd - a == bEnd - b && toA - aEnd == toB - bEnd
            && memcmp(bytesA + fromA, textB + fromB, toA - fromA) == 0
    }

    /// Whether the three bytes `pattern` occur in `bytes`.
    private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= 3 else { return false }
        for i in 0...(bytes.count - 3) where bytes[i] == pattern[0] && bytes[i + 1] == pattern[1] && bytes[i + 2] == pattern[2] {
            return true
        }
        return false
    }

    /// As `Justification.justify` does for a Pango layout: every line but a paragraph's last
    /// brought to the column.
    private func justify(to width: Int32, indent: Int32, measured attrs: UnsafePointer<PangoLogAttr>, plan: OptimalLines) {
        // Log attributes of `text`: the measured ones, with one for each soft hyphen put in.
        var textAttrs: [PangoLogAttr] = []
        textAttrs.reserveCapacity(plan.byteOf.count + lines.count)
        var softHyphenEnds = plan.lines.lazy.filter(\.softHyphen).map(\.end).makeIterator()
        var nextSoftHyphen = softHyphenEnds.next()
        for c in 0..<plan.byteOf.count {
            if c == nextSoftHyphen {
                nextSoftHyphen = softHyphenEnds.next()
                var softHyphen = attrs[c]
                softHyphen.is_white = 0
                softHyphen.is_expandable_space = 0
                textAttrs.append(softHyphen)
            }
            textAttrs.append(attrs[c])
        }
        var charAt = [Int](repeating: 0, count: byteCount + 1)
        var chars = 0
        for i in 0..<byteCount {
            charAt[i] = chars
            if UInt8(bitPattern: text[i]) & 0xC0 != 0x80 { chars += 1 }
        }
        charAt[byteCount] = chars
        textAttrs.withUnsafeBufferPointer { attrs in
            for line in lines where !line.lastOfRun && line.length > 0 {
                var available = width
                if indent > 0 && line.paragraphStart { available -= indent }
                if indent < 0 && !line.paragraphStart { available += indent }
                let slack = available - Self.width(line.runs)
                guard slack != 0 else { continue }
                Justification.spread(slack, over: line.runs, text: text, attrs: attrs.baseAddress!, attrCount: attrs.count, charAt: charAt)
            }
        }
    }

    private static func width(_ runs: [UnsafeMutablePointer<PangoGlyphItem>]) -> Int32 {
        var width: Int32 = 0
        for run in runs { width += pango_glyph_string_get_width(run.pointee.glyphs) }
        return width
    }

    /// Logical width and ink as `pango_layout_line_get_extents` adds up its runs'.
    private func measure(_ line: inout Line) {
        var ink = PangoRectangle()
        var x: Int32 = 0
        for run in line.runs {
            var runInk = PangoRectangle()
            pango_glyph_string_extents(run.pointee.glyphs, run.pointee.item.pointee.analysis.font, &runInk, nil)
            if ink.width == 0 || ink.height == 0 {
                ink = runInk
                ink.x += x
            } else if runInk.width != 0 && runInk.height != 0 {
                let left = min(ink.x, x + runInk.x)
                ink.width = max(ink.x + ink.width, x + runInk.x + runInk.width) - left
                ink.x = left
                let top = min(ink.y, runInk.y)
                ink.height = max(ink.y + ink.height, runInk.y + runInk.height) - top
                ink.y = top
            }
            x += pango_glyph_string_get_width(run.pointee.glyphs)
        }
        line.width = x
        line.ink = ink
    }
}
