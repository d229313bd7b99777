import CGraphics

extension GlyphRun {
    /// `lines` (consecutive lines of one text, as drawn together) with each word or token broken
    /// across a line without a hyphen being added carried whole by the line it starts on: the rest
    /// of its text moves onto the line's last cluster and the glyphs it leaves on the next line
    /// keep no text. So a compound broken after its own hyphen ("self-" at a line's end, "defense"
    /// at the next one's start) reads "self-defense", not "selfdefense" (extractors, poppler's among
    /// them, take a line that ends in a hyphen-minus for a word broken by layout and drop the
    /// hyphen), and a path or a name from a program broken after a dot, slash or underscore
    /// ("requirements." and "txt") reads "requirements.txt", not "requirements. txt" (extractors
    /// put a space or a line break between two lines).
    ///
    /// `continues[i]`: line i's text goes on at the start of line i + 1 (it ends no paragraph).
    /// Left-to-right lines of scripts written with spaces only; a line ending in a hyphen the
    /// layout added is left to that rule (extractors join it), and so is a line that ends in a
    /// space or a line separator.
    public static func joiningBrokenTokens(_ lines: [[GlyphRun]], continues: [Bool]) -> [[GlyphRun]] {
        var lines = lines
        for i in lines.indices.dropLast() where i < continues.count && continues[i] {
            guard let endRun = lines[i].lastIndex(where: { !$0.glyphs.isEmpty }) else { continue }
            let end = lines[i][endRun]
            guard !end.backward, !end.endsInAddedHyphen, !end.colorGlyphs, let last = lastScalar(end.text), !isSpace(last), writtenWithSpaces(last),
                  let lastCluster = end.clusters.last, lastCluster.num_bytes > 0, lastCluster.num_glyphs > 0,
                  let nextRun = lines[i + 1].first(where: { !$0.text.isEmpty }), !nextRun.backward, !nextRun.colorGlyphs,
                  let first = firstScalar(nextRun.text), !isSpace(first), writtenWithSpaces(first) else { continue }
            var moved: [CChar] = []
            var next = lines[i + 1]
            runs: for r in next.indices {
                let run = next[r]
                if run.backward { break }
                var clusters = run.clusters, byte = 0, taken = 0
                var c = 0
                while c < clusters.count {
                    let bytes = run.text[byte..<byte + Int(clusters[c].num_bytes)]
                    if bytes.contains(where: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }) {
                        next[r] = run.withText(Array(run.text.dropFirst(taken)), clusters: clusters)
                        break runs
                    }
                    moved.append(contentsOf: bytes)
                    byte += bytes.count; taken += bytes.count
                    clusters[c].num_bytes = 0
                    if clusters[c].num_glyphs == 0 { clusters.remove(at: c) } else { c += 1 }
                }
                next[r] = run.withText(Array(run.text.dropFirst(taken)), clusters: clusters)
            }
            guard !moved.isEmpty else { continue }
            lines[i + 1] = next
            var clusters = end.clusters
            clusters[clusters.count - 1].num_bytes += Int32(moved.count)
            lines[i][endRun] = end.withText(end.text + moved, clusters: clusters)
        }
        return lines
    }

    /// White space, and U+2028 LINE SEPARATOR (a forced break inside a paragraph).
    private static func isSpace(_ s: Unicode.Scalar) -> Bool {
        s.properties.isWhitespace || s == "\u{2028}"
    }

    /// Not a character of a script set without spaces between words (CJK, Thai, Lao, Khmer,
    /// Myanmar), whose lines break between words with nothing to join.
    private static func writtenWithSpaces(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x2E80...0xA4CF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return false
        default:
            return true
        }
    }

    private static func lastScalar(_ text: [CChar]) -> Unicode.Scalar? {
        var start = text.count - 1
        while start > 0 && UInt8(bitPattern: text[start]) & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0 else { return nil }
        return String(decoding: text[start...].map { UInt8(bitPattern: $0) }, as: UTF8.self).unicodeScalars.first
    }

    private static func firstScalar(_ text: [CChar]) -> Unicode.Scalar? {
        String(decoding: text.prefix(4).map { UInt8(bitPattern: $0) }, as: UTF8.self).unicodeScalars.first
    }

    func withText(_ text: [CChar], clusters: [cairo_text_cluster_t]) -> GlyphRun {
        GlyphRun(font: font, x: x, y: y, glyphs: glyphs, text: text, clusters: clusters, backward: backward,
                 colorGlyphs: colorGlyphs, endsInAddedHyphen: endsInAddedHyphen, fontFile: fontFile, fontSize: fontSize)
    }
}
