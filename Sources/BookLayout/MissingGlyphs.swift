import CGraphics
import BookResolve

/// Finds characters no font in the set could draw (they would print as hex boxes) and names the
/// physical pages they fall on.
enum MissingGlyphs {
    /// Pango marks a glyph it had no font for with this flag (PANGO_GLYPH_UNKNOWN_FLAG, not imported).
    static let unknownFlag: UInt32 = 0x1000_0000

    static func findings(in pages: [PageNode]) -> [Finding] {
        var result: [Finding] = []
        for page in pages {
            var missing: [String] = []
            for box in page.textBoxes where box.layout.unknownGlyphCount > 0 {
                for i in box.lines { missing += unknownCharacters(in: box.layout, line: i) }
            }
            guard !missing.isEmpty else { continue }
            let listed = missing.prefix(8).map { c in
                "U+" + c.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " U+")
            }.joined(separator: ", ")
            result.append(Finding(.warning, .missingGlyph, sourcePage: page.sourcePage, physicalPages: [page.number],
                                  "no font in the font set has \(listed); it prints as a box (add a font that covers it to the book's fonts/ folder)"))
        }
        return result
    }

    private static func unknownCharacters(in layout: TextLayout, line index: Int) -> [String] {
        guard let line = layout.pangoLine(index) else { return [] }
        var out: [String] = []
        let bytes = Array(layout.text.utf8)
        let blockOffset = layout.lines[index].byteRange.lowerBound - Int(line.pointee.start_index)
        var run = line.pointee.runs
        while let node = run {
            if let item = node.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
               let glyphs = item.pointee.glyphs, let clusters = glyphs.pointee.log_clusters {
                let offset = blockOffset + Int(item.pointee.item.pointee.offset)
                for g in 0..<Int(glyphs.pointee.num_glyphs) where glyphs.pointee.glyphs[g].glyph & unknownFlag != 0 {
                    let start = offset + Int(clusters[g])
                    var end = start + 1
                    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                    if start < bytes.count, let s = String(bytes: bytes[start..<end], encoding: .utf8) { out.append(s) }
                }
            }
            run = node.pointee.next
        }
        return out
    }
}
