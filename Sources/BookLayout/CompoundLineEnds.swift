import CGraphics

extension GlyphRun {
    /// `lines` (consecutive lines of one text, as drawn together) with each compound that breaks
    /// after its own hyphen ("self-" at a line's end, "defense" at the next one's start) carried
    /// whole by the hyphen: the rest of the word's text moves onto the hyphen's cluster and the
    /// glyphs it leaves keep no text. Extractors (poppler's among them) take a line that ends in a
    /// hyphen-minus for a word broken by layout and drop the hyphen, which would turn the book's
    /// "self-defense" into "selfdefense"; a line that ends "self-defense" reads right everywhere.
    /// Left-to-right lines only; a line ending in an added hyphen is left to that rule.
    public static func joiningCompounds(_ lines: [[GlyphRun]]) -> [[GlyphRun]] {
        var lines = lines
        for i in lines.indices.dropLast() {
            guard let endRun = lines[i].lastIndex(where: { !$0.glyphs.isEmpty }) else { continue }
            let end = lines[i][endRun]
            guard !end.backward, !end.endsInAddedHyphen, end.text.last == CChar(UInt8(ascii: "-")),
                  let lastCluster = end.clusters.last, lastCluster.num_bytes == 1, lastCluster.num_glyphs > 0 else { continue }
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

    func withText(_ text: [CChar], clusters: [cairo_text_cluster_t]) -> GlyphRun {
        GlyphRun(font: font, x: x, y: y, glyphs: glyphs, text: text, clusters: clusters, backward: backward,
                 colorGlyphs: colorGlyphs, endsInAddedHyphen: endsInAddedHyphen, fontFile: fontFile, fontSize: fontSize)
    }
}
