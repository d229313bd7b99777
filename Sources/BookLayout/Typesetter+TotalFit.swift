import CGraphics
import CShim

/// Total-fit line breaking of a block: measured by Pango, broken by `ParagraphBreaker` (through
/// `OptimalLines`), set in the lines chosen from the measurement (`BrokenLines`) or, where that
/// cannot be, by Pango again.
extension Typesetter {
    /// A block set with total-fit breaks (see `OptimalLines`): laid out first in one line per
    /// paragraph to measure it, then set in the lines chosen, from that measurement where it can be
    /// (`setsLines`), otherwise laid out again by Pango. The block's text is returned because it
    /// changes: only the soft hyphens where a line ends stay. When Pango does not take exactly the
    /// lines chosen (a dash it keeps breakable inside a line fits before the margin), the block is
    /// set first-fit instead, its text unchanged.
    func makeOptimalLayout(_ text: String, bytes: Range<Int>, style: TextStyle, width: Double,
                           alignment: TextAlignment, byteOffset: Int, setsLines: Bool = true) -> (block: TextLayout.Block, text: [UInt8]) {
        let layout = newPangoLayout(style: style, width: -1, alignment: alignment)
        var settings = OptimalLines.Settings(width: Self.units(width), indent: Self.units(style.firstLineIndent),
                                             justify: alignment == .justify, hyphenWidth: hyphenWidth(style),
                                             em: style.size * Double(PANGO_SCALE))
        var original: [UInt8] {
            var text = text
            return text.withUTF8 { Array($0[bytes]) }
        }
        // Measured without its soft hyphens, so that each word is shaped as the lines will show it
        // (and the shaping cache knows it); they come back where a line ends.
        var plain: [UInt8] = []
        var hyphens: [Int] = []
        var chars = 0
        let source = original
        plain.reserveCapacity(source.count)
        var i = 0
        while i < source.count {
            if source[i] == 0xC2 && i + 1 < source.count && source[i + 1] == 0xAD {
                hyphens.append(chars)
                i += 2
                continue
            }
            if source[i] & 0xC0 != 0x80 { chars += 1 }
            plain.append(source[i])
            i += 1
        }
        settings.hyphenPoints = hyphens
        // The layout is as wide as the line that shrinks most, so a line after one that shrinks less
        // may fit on it and Pango join them: then the block is set again with no line shrinking,
        // and when even that is not taken, first fit.
        for shrink in [true, false] {
            settings.shrink = shrink
            measure(layout, style: style, text: plain)
            guard let plan = OptimalLines(measured: layout, settings: settings) else { break }
            // Most blocks: the lines set from the measurement, exactly as chosen.
            if setsLines && setsLinesFromMeasurement,
               let lines = BrokenLines(measured: layout, plan: plan, style: style,
                                       justifyTo: alignment == .justify ? Self.units(width) : nil) {
                return (TextLayout.Block(layout: layout, byteOffset: byteOffset, overhang: plan.layoutWidth - Self.units(width),
                                         broken: lines), plan.text)
            }
            if setLines(layout, plan: plan, style: style) {
                if alignment == .justify { Justification.justify(layout, width: Self.units(width)) }
                return (TextLayout.Block(layout: layout, byteOffset: byteOffset, overhang: plan.layoutWidth - Self.units(width)), plan.text)
            }
        }
        let base = attributes(style)
        pango_layout_set_attributes(layout, base)
        pango_attr_list_unref(base)
        pango_layout_set_width(layout, Self.units(width))
        setText(layout, text, bytes: bytes)
        if alignment == .justify { Justification.justify(layout, width: Self.units(width)) }
        return (TextLayout.Block(layout: layout, byteOffset: byteOffset), original)
    }

    /// `layout` holding the block in one line per paragraph, for `OptimalLines` to measure.
    private func measure(_ layout: OpaquePointer, style: TextStyle, text: [UInt8]) {
        let attrs = attributes(style)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        pango_layout_set_width(layout, -1)
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
        }
    }

    /// Sets `plan`'s text and lines; whether Pango took exactly those lines.
    private func setLines(_ layout: OpaquePointer, plan: OptimalLines, style: TextStyle) -> Bool {
        let attrs = attributes(style)
        for range in plan.keepTogether {
            let attr = pango_attr_allow_breaks_new(0)!
            attr.pointee.start_index = guint(range.lowerBound)
            attr.pointee.end_index = guint(range.upperBound)
            pango_attr_list_insert(attrs, attr)
        }
        for range in plan.breakBefore {
            let attr = pango_attr_word_new()!
            attr.pointee.start_index = guint(range.lowerBound)
            attr.pointee.end_index = guint(range.upperBound)
            pango_attr_list_insert(attrs, attr)
        }
        pango_layout_set_width(layout, plan.layoutWidth)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        plan.text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
        }
        return Self.lineStarts(layout) == plan.lineStarts
    }

    private static func lineStarts(_ layout: OpaquePointer) -> [Int] {
        var starts: [Int] = []
        var list = pango_layout_get_lines_readonly(layout)
        while let node = list {
            list = node.pointee.next
            if let line = node.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) { starts.append(Int(line.pointee.start_index)) }
        }
        return starts
    }

    /// The width of the hyphen Pango draws at a soft hyphen where a line ends, per style: "x‐"
    /// less "x" (Pango draws U+2010 when the font has it).
    private func hyphenWidth(_ style: TextStyle) -> Double {
        if let known = hyphenWidths[style] { return known }
        let layout = newPangoLayout(style: style, width: -1, alignment: .start)
        let attrs = attributes(style)
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        func width(_ text: String) -> Int32 {
            pango_layout_set_text(layout, text, -1)
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            return logical.width
        }
        let hyphen = Double(max(0, width("x\u{2010}") - width("x")))
        shim_object_unref(UnsafeMutableRawPointer(layout))
        hyphenWidths[style] = hyphen
        return hyphen
    }
}
