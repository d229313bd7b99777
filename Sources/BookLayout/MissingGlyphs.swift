import CGraphics
import CShim
import BookResolve

/// Finds characters that would not print as written and names the physical pages they fall on:
/// those no font in the set has (Pango draws a box of hex digits instead), and private-use
/// characters drawn by one of bookrender's own fonts, which show whatever that font keeps at the
/// code point (Linux Libertine has a penguin at U+E000) and copy out of the PDF as nothing. A
/// private-use character set in a font the book brought is the book's own choice and passes.
enum MissingGlyphs {
    /// Pango marks a glyph it had no font for with this flag (PANGO_GLYPH_UNKNOWN_FLAG, not imported).
    static let unknownFlag: UInt32 = 0x1000_0000

    static func findings(in pages: [PageNode], fonts: FontLibrary) -> [Finding] {
        var result: [Finding] = []
        var ownFonts: Set<String>?
        for page in pages {
            var missing: [Missing] = []
            for box in page.textBoxes where box.layout.unknownGlyphCount > 0 || box.layout.hasPrivateUse {
                for i in box.lines {
                    missing += characters(in: box.layout, line: i) { font in
                        // The book's fonts (and a test's extra folders) are not in the manifest.
                        let manifest = ownFonts ?? Set(fonts.manifest.files.map(\.path))
                        ownFonts = manifest
                        guard let path = shim_font_file(font) else { return true }
                        defer { g_free(path) }
                        return manifest.contains(fonts.realPath(String(cString: path)))
                    }
                }
            }
            guard !missing.isEmpty else { continue }
            var seen = Set<String>()
            let unique = missing.filter { seen.insert($0.character).inserted }
            let listed = unique.prefix(8).map(\.named).joined(separator: ", ")
            let boxes = unique.filter { !$0.privateUse }.isEmpty ? "" :
                " Characters no font in the set has print as a box: add a font that covers them to the book's fonts/ folder."
            let privateUse = unique.filter(\.privateUse).isEmpty ? "" :
                " A private-use character prints as whatever the font keeps there: replace it, or bring the font it was meant for in the book's fonts/ folder."
            result.append(Finding(.warning, .missingGlyph, sourcePage: page.sourcePage, physicalPages: [page.number],
                                  "cannot print \(listed) as written.\(boxes)\(privateUse)"))
        }
        return result
    }

    struct Missing {
        var character: String
        var privateUse: Bool

        /// "U+E000 (\u{E000})": the code points, and the character itself where it can be shown.
        var named: String {
            let points = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
            return privateUse ? "\(points) (\(character), private use)" : "\(points) (\(character))"
        }
    }

    static func isPrivateUse(_ scalar: Unicode.Scalar) -> Bool {
        (0xE000...0xF8FF).contains(scalar.value) || scalar.value >= 0xF0000
    }

    /// The characters of line `index` that will not print as written; `fromOwnFont` says whether a
    /// run's font is one of bookrender's own.
    private static func characters(in layout: TextLayout, line index: Int,
                                   fromOwnFont: (UnsafeMutablePointer<PangoFont>) -> Bool) -> [Missing] {
        guard let line = layout.lineRuns(index) else { return [] }
        // The layout's text is shared by every page of a chapter: read it in place, never copied per line.
        var text = layout.text
        return text.withUTF8 { bytes in
            var out: [Missing] = []
            let blockOffset = layout.lines[index].byteRange.lowerBound - line.start
            for item in line.runs {
                if let glyphs = item.pointee.glyphs, let clusters = glyphs.pointee.log_clusters {
                    let offset = blockOffset + Int(item.pointee.item.pointee.offset)
                    var own: Bool?
                    for g in 0..<Int(glyphs.pointee.num_glyphs) {
                        let start = offset + Int(clusters[g])
                        guard start < bytes.count else { continue }
                        var end = start + 1
                        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                        guard let scalar = s.unicodeScalars.first else { continue }
                        if glyphs.pointee.glyphs[g].glyph & unknownFlag != 0 {
                            out.append(Missing(character: s, privateUse: isPrivateUse(scalar)))
                        } else if isPrivateUse(scalar) {
                            if own == nil { own = item.pointee.item.pointee.analysis.font.map(fromOwnFont) ?? true }
                            if own == true { out.append(Missing(character: s, privateUse: true)) }
                        }
                    }
                }
            }
            return out
        }
    }
}
