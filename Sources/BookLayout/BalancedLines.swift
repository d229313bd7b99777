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
        let full = lineStarts(segment, style: style, width: width, typesetter: typesetter)
        guard full.count > 1, full.count <= maxLines else { return segment }
        var narrow = width / Double(full.count) / 2, wide = width, best = full
        while wide - narrow > precision {
            let mid = (narrow + wide) / 2
            let starts = lineStarts(segment, style: style, width: mid, typesetter: typesetter)
            if starts.count <= full.count { wide = mid; best = starts } else { narrow = mid }
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

    private static func containsSoftHyphen(_ bytes: [UInt8]) -> Bool {
        zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && $1 == 0xAD }
    }

    /// Where each line starts (UTF-8 offsets) when Pango sets `segment` in `width`, breaking only
    /// between words: a word cut in two to fill a narrower line would be a break the full column
    /// never needs.
    private static func lineStarts(_ segment: [UInt8], style: TextStyle, width: Double, typesetter: Typesetter) -> [Int] {
        let layout = typesetter.newPangoLayout(style: style, width: width, alignment: .center)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
        defer { shim_object_unref(UnsafeMutableRawPointer(layout)) }
        let attrs = typesetter.attributes(style)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        segment.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
        }
        var starts: [Int] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let n = node {
            node = n.pointee.next
            if let line = n.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) { starts.append(Int(line.pointee.start_index)) }
        }
        return starts
    }
}
