import CGraphics
import CShim

/// Centred text broken as a designer breaks it. Pango fills each line in turn, which can leave a
/// word alone under a full line ("… wide and blue and / shining."). Here each paragraph of a few
/// lines is set again at the narrowest width that keeps its number of lines, so its lines come out
/// about even, and those breaks are kept, as line separators, when the text is set in the full
/// column. The title setter's idea, with Pango's own break rules, so every script breaks where
/// it may.
enum BalancedLines {
    /// A paragraph of more lines is left as Pango breaks it: long centred text is rare, and each
    /// narrowing is a layout of the whole paragraph.
    static let maxLines = 12
    /// The narrowing stops once the widths tried are this close (points).
    static let precision = 0.5

    /// `text` (normalised: "\n" between paragraphs, U+2028 between forced lines) with a line
    /// separator at each break of its balanced lines.
    static func balanced(_ text: String, style: TextStyle, width: Double, typesetter: Typesetter) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A || isLineSeparator(bytes, at: i) {
            out.append(contentsOf: balancedSegment(Array(bytes[start..<i]), style: style, width: width, typesetter: typesetter))
            if i < bytes.count {
                let separator = bytes[i] == 0x0A ? 1 : 3
                out.append(contentsOf: bytes[i..<(i + separator)])
                start = i + separator
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isLineSeparator(_ bytes: [UInt8], at i: Int) -> Bool {
        i + 2 < bytes.count && bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA8
    }

    /// One run of text between forced breaks, with its balanced breaks put in.
    private static func balancedSegment(_ segment: [UInt8], style: TextStyle, width: Double, typesetter: Typesetter) -> [UInt8] {
        // A break Pango would draw a hyphen at stays Pango's to make.
        guard !segment.isEmpty, !containsSoftHyphen(segment) else { return segment }
        // The narrowing on widths measured once, checked by Pango at the width found; where
        // Pango breaks otherwise there (a kern across a break, letter spacing at a line's end), it
        // is done again with Pango at every width.
        var best: [Int]
        if let measured = Measured(segment, style: style, typesetter: typesetter) {
            let full = measured.lineStarts(width)
            guard full.count > 1, full.count <= maxLines else { return segment }
            let (found, at) = narrowest(width: width, lines: full) { measured.lineStarts($0) }
            best = found
            if lineStarts(segment, style: style, width: at, typesetter: typesetter) != best {
                guard let checked = narrowestWithPango(segment, style: style, width: width, typesetter: typesetter) else { return segment }
                best = checked
            }
        } else {
            guard let checked = narrowestWithPango(segment, style: style, width: width, typesetter: typesetter) else { return segment }
            best = checked
        }
        // Each break becomes a line separator: in place of the space the line ended with, or
        // inserted where the line ends without one (after a hyphen, between ideographs).
        var out: [UInt8] = []
        out.reserveCapacity(segment.count + 3 * best.count)
        var copied = 0
        for start in best.dropFirst() {
            var end = start
            while end > copied, segment[end - 1] == 0x20 { end -= 1 }
            out.append(contentsOf: segment[copied..<end])
            out.append(contentsOf: [0xE2, 0x80, 0xA8])
            copied = start
        }
        out.append(contentsOf: segment[copied...])
        return out
    }

    /// The line starts at the narrowest width (to `precision`) that keeps `lines.count` lines, and
    /// that width.
    private static func narrowest(width: Double, lines full: [Int], starts: (Double) -> [Int]) -> ([Int], Double) {
        var narrow = width / Double(full.count) / 2, wide = width, best = full
        while wide - narrow > precision {
            let mid = (narrow + wide) / 2
            let found = starts(mid)
            if found.count <= full.count { wide = mid; best = found } else { narrow = mid }
        }
        return (best, wide)
    }

    /// The balanced line starts with Pango laying the segment out at each width tried; nil when it
    /// takes one line, or too many to balance.
    private static func narrowestWithPango(_ segment: [UInt8], style: TextStyle, width: Double, typesetter: Typesetter) -> [Int]? {
        let full = lineStarts(segment, style: style, width: width, typesetter: typesetter)
        guard full.count > 1, full.count <= maxLines else { return nil }
        return narrowest(width: width, lines: full) { lineStarts(segment, style: style, width: $0, typesetter: typesetter) }.0
    }

    /// A segment laid out once in one line: each character's width from its shaped glyphs and
    /// Pango's break opportunities, from which the lines Pango fills at any width follow.
    struct Measured {
        /// `natural[i]`: the width of characters 0..<i (points).
        let natural: [Double]
        /// Pango may break before character i.
        let breakBefore: [Bool]
        let white: [Bool]
        let byteOf: [Int]
        let indent: Double

        init?(_ segment: [UInt8], style: TextStyle, typesetter: Typesetter) {
            let layout = BalancedLines.pangoLayout(segment, style: style, width: -1, typesetter: typesetter)
            defer { shim_object_unref(UnsafeMutableRawPointer(layout)) }
            var byteOf: [Int] = []
            var charAt = [Int](repeating: 0, count: segment.count + 1)
            for (i, b) in segment.enumerated() {
                if b & 0xC0 != 0x80 { byteOf.append(i) }
                charAt[i] = byteOf.count - 1
            }
            let count = byteOf.count
            byteOf.append(segment.count)
            charAt[segment.count] = count
            var attrCount: Int32 = 0
            // One line, or the segment holds a break of its own (a paragraph separator): Pango's to set.
            guard pango_layout_get_line_count(layout) == 1, let logAttrs = pango_layout_get_log_attrs_readonly(layout, &attrCount),
                  Int(attrCount) == count + 1, let line = pango_layout_get_line_readonly(layout, 0),
                  let text = pango_layout_get_text(layout) else { return nil }
            var widths = [Double](repeating: 0, count: count)
            var logical: [Int32] = []
            for run in TextLayout.LineSource.runs(of: line) {
                guard let item = run.pointee.item else { continue }
                let chars = Int(item.pointee.num_chars), first = charAt[min(Int(item.pointee.offset), segment.count)]
                guard chars > 0, first + chars <= count else { return nil }
                if logical.count < chars { logical = [Int32](repeating: 0, count: chars) }
                logical.withUnsafeMutableBufferPointer { pango_glyph_item_get_logical_widths(run, text, $0.baseAddress) }
                for k in 0..<chars { widths[first + k] = Double(logical[k]) / Double(PANGO_SCALE) }
            }
            var natural = [Double](repeating: 0, count: count + 1)
            for c in 0..<count { natural[c + 1] = natural[c] + widths[c] }
            var breakBefore = [Bool](repeating: false, count: count + 1), white = [Bool](repeating: false, count: count)
            for c in 0..<count {
                if logAttrs[c].is_mandatory_break != 0 && c > 0 { return nil }
                breakBefore[c] = c > 0 && logAttrs[c].is_line_break != 0
                white[c] = logAttrs[c].is_white != 0
            }
            self.natural = natural
            self.breakBefore = breakBefore
            self.white = white
            self.byteOf = byteOf
            self.indent = style.firstLineIndent
        }

        /// Where each line starts (bytes) when the lines are filled in turn in `width`: each ends
        /// at the last break where its text, less the spaces it ends with, fits; a word wider than
        /// the line stands alone on it.
        func lineStarts(_ width: Double) -> [Int] {
            let count = natural.count - 1
            var starts = [0]
            var start = 0
            while true {
                let room = width - (starts.count == 1 ? max(indent, 0) : -min(indent, 0))
                if content(start, count) <= room { break }
                var end: Int?
                for b in (start + 1)..<count where breakBefore[b] {
                    if content(start, b) <= room { end = b } else {
                        if end == nil { end = b }
                        break
                    }
                }
                guard let next = end else { break }
                starts.append(next)
                start = next
            }
            return starts.map { byteOf[$0] }
        }

        /// The width of characters `start..<end` less the spaces they end with.
        private func content(_ start: Int, _ end: Int) -> Double {
            var last = end
            while last > start, white[last - 1] { last -= 1 }
            return natural[last] - natural[start]
        }
    }

    private static func containsSoftHyphen(_ bytes: [UInt8]) -> Bool {
        zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && $1 == 0xAD }
    }

    /// Where each line starts (UTF-8 offsets) when Pango sets `segment` in `width`, breaking only
    /// between words: a word cut in two to fill a narrower line would be a break the full column
    /// never needs.
    static func lineStarts(_ segment: [UInt8], style: TextStyle, width: Double, typesetter: Typesetter) -> [Int] {
        let layout = pangoLayout(segment, style: style, width: width, typesetter: typesetter)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
        defer { shim_object_unref(UnsafeMutableRawPointer(layout)) }
        var starts: [Int] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            node = n.pointee.next
            if let line = n.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) { starts.append(Int(line.pointee.start_index)) }
        }
        return starts
    }

    /// A new Pango layout (the caller unrefs it) of `segment` centred in `width` (-1: one line),
    /// with the style's attributes.
    static func pangoLayout(_ segment: [UInt8], style: TextStyle, width: Double, typesetter: Typesetter) -> OpaquePointer {
        let layout = typesetter.newPangoLayout(style: style, width: width, alignment: .center)
        let attrs = typesetter.attributes(style)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        segment.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
        }
        return layout
    }
}
