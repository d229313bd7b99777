import CGraphics

/// Justifies the wrapped lines of a Pango layout by widening glyphs, as Pango's own justification
/// does, but from each line's measured width; a line wider than the column (total-fit breaking
/// chose to shrink its spaces) is narrowed the same way.
///
/// Pango 1.50.12 overshoots: when a line breaks at a soft hyphen chosen well before the margin,
/// `add_missing_hyphen` adds the hyphen's width back to the line's remaining space instead of
/// subtracting it, and `pango_layout_set_justify` then stretches the line one hyphen past the
/// column (about 17 % of hyphenated lines in a narrow column). The breaks themselves are right,
/// so layout runs unjustified and this pass spreads each line's real slack.
enum Justification {
    /// Call once, after the text and width are set; marks the lines it touches as modified so that
    /// Pango does not serve stale cached extents.
    static func justify(_ layout: OpaquePointer, width: Int32) {
        guard width > 0, let textPointer = pango_layout_get_text(layout) else { return }
        let byteCount = Int(strlen(textPointer))
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(textPointer).assumingMemoryBound(to: UInt8.self), count: byteCount)
        var attrCount: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &attrCount) else { return }
        // Character index of every byte offset, for the log attributes.
        var charAt = [Int](repeating: 0, count: byteCount + 1)
        var chars = 0
        for i in 0..<byteCount {
            charAt[i] = chars
            if bytes[i] & 0xC0 != 0x80 { chars += 1 }
        }
        charAt[byteCount] = chars
        let indent = pango_layout_get_indent(layout)

        let lineCount = pango_layout_get_line_count(layout)
        for index in 0..<lineCount {
            guard let line = pango_layout_get_line_readonly(layout, index) else { continue }
            let start = Int(line.pointee.start_index), end = start + Int(line.pointee.length)
            guard end > start, end < byteCount, bytes[end] != 0x0A else { continue }  // paragraph's last line
            if end >= 3 && bytes[end - 3] == 0xE2 && bytes[end - 2] == 0x80 && bytes[end - 1] == 0xA8 { continue }  // U+2028
            let paragraphStart = start == 0 || bytes[start - 1] == 0x0A
            var available = width
            if indent > 0 && paragraphStart { available -= indent }
            if indent < 0 && !paragraphStart { available += indent }
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &logical)
            let slack = available - logical.width
            guard slack != 0 else { continue }
            // Asking for the line as modifiable makes Pango stop caching its extents.
            guard let editable = pango_layout_get_line(layout, index) else { continue }
            spread(slack, over: TextLayout.LineSource.runs(of: editable), text: textPointer, attrs: attrs,
                   attrCount: Int(attrCount), charAt: charAt)
        }
    }

    private struct Slot { var glyphs: UnsafeMutablePointer<PangoGlyphString>; var index: Int; var width: Int32; var run = 0 }

    /// Like Pango: slack goes to expandable spaces in proportion to their widths; a line without
    /// one gets it between grapheme clusters when it is in a script written without spaces (see
    /// `InterCharacterScripts`), and is otherwise left as it is.
    /// `runs` are a line's, in order; `attrs` and `charAt` are of `text`, which their items index.
    static func spread(_ slack: Int32, over runs: [UnsafeMutablePointer<PangoGlyphItem>], text: UnsafePointer<CChar>,
                       attrs: UnsafePointer<PangoLogAttr>, attrCount: Int, charAt: [Int]) {
        var spaces: [Slot] = []
        // The clusters only matter for a line of a script written without spaces.
        let interCharacter = runs.contains { InterCharacterScripts.contains($0.pointee.item) }
        var clusters: [Slot] = []
        var runIndex = 0
        for run in runs {
            runIndex += 1
            guard let glyphs = run.pointee.glyphs else { continue }
            let itemChar = charAt[min(Int(run.pointee.item.pointee.offset), charAt.count - 1)]
            var iter = PangoGlyphItemIter()
            var more = pango_glyph_item_iter_init_start(&iter, run, text) != 0
            while more {
                let charIndex = itemChar + Int(iter.start_char)
                let attr = charIndex < attrCount ? attrs[charIndex] : PangoLogAttr()
                let step = iter.start_glyph < iter.end_glyph ? 1 : -1
                var clusterWidth: Int32 = 0
                var last = Int(iter.start_glyph)
                var g = Int(iter.start_glyph)
                while g != Int(iter.end_glyph) {
                    let w = glyphs.pointee.glyphs[g].geometry.width
                    clusterWidth += w
                    if attr.is_expandable_space != 0 && w > 0 { spaces.append(Slot(glyphs: glyphs, index: g, width: w)) }
                    last = max(last, g)
                    g += step
                }
                if interCharacter && attr.is_cursor_position != 0 && clusterWidth > 0 {
                    clusters.append(Slot(glyphs: glyphs, index: last, width: clusterWidth, run: runIndex))
                }
                more = pango_glyph_item_iter_next_cluster(&iter) != 0
            }
        }
        if slack < 0 {
            // A line chosen to shrink its spaces (total fit) gives up at most three eighths of each,
            // with some room for the glyphs shaped at its break; anything wider stays as it is.
            let total = spaces.reduce(Int64(0)) { $0 + Int64($1.width) }
            guard total > 0, -Int64(slack) * 5 <= total * 2 else { return }
        }
        if !spaces.isEmpty {
            let total = spaces.reduce(Int64(0)) { $0 + Int64($1.width) }
            var sum: Int64 = 0, added: Int64 = 0
            for slot in spaces {
                sum += Int64(slot.width)
                let adjustment = sum * Int64(slack) / total - added
                slot.glyphs.pointee.glyphs[slot.index].geometry.width += Int32(adjustment)
                added += adjustment
            }
        } else if interCharacter && clusters.count > 1 && slack > 0 {
            // Between clusters only, so nothing after the visually last one. Runs are in visual
            // order, and so are the glyphs inside a run, whatever its direction.
            clusters.sort { ($0.run, $0.index) < ($1.run, $1.index) }
            let gaps = Int32(clusters.count - 1)
            for (n, slot) in clusters.dropLast().enumerated() {
                let adjustment = slack / gaps + (Int32(n) < slack % gaps ? 1 : 0)
                slot.glyphs.pointee.glyphs[slot.index].geometry.width += adjustment
            }
        }
    }
}
