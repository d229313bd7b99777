import CGraphics

/// The text a PDF keeps behind a run's glyphs: the book's words as a reader searches and copies
/// them, not the characters Pango shaped. Soft hyphens are break hints the layout put in, so they
/// are left out (inside a ligature too, where they would split "butter" into "but", U+00AD, "ter"
/// for every reader). A hyphen Pango draws where a line breaks inside a word stands for
/// U+002D: poppler, like most extractors, joins a line ending in a hyphen-minus to the next one,
/// so the word reads whole.
///
/// cairo carries a ligature's text (several characters, one glyph) as ActualText: the glyph's own
/// mapping is a presentation form (U+FB00 for "ff"). MuPDF gives such a glyph the text's first
/// character and sets the rest down where the glyph ends; a glyph that starts there with the same
/// character ("ff" then "f" in "Schifffahrt") is then taken for that character printed twice and
/// dropped. So such a ligature keeps only its first character, and the rest goes with the glyph
/// after it. And letter-spaced text ("R U T H" in spaced capitals) reads as letters apart in both
/// readers: its first glyph carries the run's whole text, the others none.
enum RunText {
    /// UTF-8 bytes and Pango's clusters for `run` (as `pango_cairo_renderer_draw_glyph_item` counts
    /// them: one per Pango cluster, its bytes and its drawn glyphs, empty and unknown glyphs left
    /// out as they are from the glyph list), with soft hyphens taken out of both. A cluster left
    /// with no bytes and no glyphs is dropped: cairo refuses one.
    /// `keepsClusters`: a run whose clusters are drawn one by one (colour glyphs, see `PageDrawer`)
    /// keeps Pango's.
    static func make(_ run: UnsafeMutablePointer<PangoGlyphItem>, text: UnsafePointer<CChar>,
                     keepsClusters: Bool = false) -> (text: [CChar], clusters: [cairo_text_cluster_t], addedHyphen: Bool) {
        guard let item = run.pointee.item, let glyphString = run.pointee.glyphs else { return ([], [], false) }
        let analysis = item.pointee.analysis
        let backward = analysis.level & 1 != 0
        let start = Int(item.pointee.offset), length = Int(item.pointee.length)
        // Soft hyphens are rare (one where a line ends, at most): a run without one is copied whole.
        var softHyphens = false
        for i in start..<max(start, start + length - 1) where isSoftHyphen(text, at: i) { softHyphens = true; break }
        var kept: [CChar]
        if softHyphens {
            kept = []
            kept.reserveCapacity(length + 1)
            var i = start
            while i < start + length {
                if isSoftHyphen(text, at: i) { i += 2; continue }
                kept.append(text[i]); i += 1
            }
        } else {
            kept = [CChar](unsafeUninitializedCapacity: length + 1) { buffer, count in
                buffer.baseAddress!.initialize(from: text + start, count: length)
                count = length
            }
        }
        var clusters: [cairo_text_cluster_t] = []
        if !backward, let glyphs = glyphString.pointee.glyphs, let logClusters = glyphString.pointee.log_clusters {
            // Left to right, the clusters as `pango_glyph_item_iter_next_cluster` finds them, without
            // its calls: a glyph and those after it up to one of a later log cluster; its text from
            // where the one before ended up to that glyph's log cluster (the run's end after the last).
            let n = Int(glyphString.pointee.num_glyphs)
            clusters.reserveCapacity(n + 1)
            var g = 0, clusterStart = 0
            while g < n {
                var h = g + 1
                while h < n && logClusters[h] <= logClusters[g] { h += 1 }
                let clusterEnd = h < n ? Int(logClusters[h]) : length
                var count = Int32(truncatingIfNeeded: clusterEnd - clusterStart)
                if softHyphens {
                    count = 0
                    var b = start + clusterStart
                    while b < start + clusterEnd {
                        if isSoftHyphen(text, at: b) { b += 2; continue }
                        count += 1; b += 1
                    }
                }
                var drawn = Int32(h - g)
                for k in g..<h where glyphs[k].glyph == PANGO_GLYPH_EMPTY || glyphs[k].glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 { drawn -= 1 }
                if count > 0 || drawn > 0 { clusters.append(cairo_text_cluster_t(num_bytes: count, num_glyphs: drawn)) }
                clusterStart = clusterEnd
                g = h
            }
        } else {
            clusters = iteratedClusters(run, text: text, glyphString: glyphString, backward: backward)
        }
        if !backward && !keepsClusters {
            if isLetterSpaced(analysis) {
                textOnTheFirstGlyph(&clusters)
            } else {
                ligaturesBeforeTheirLetter(&clusters, text: kept)
            }
        }
        let addedHyphen = finish(&kept, &clusters, analysis: analysis)
        return (kept, clusters, addedHyphen)
    }

    /// A left-to-right run's ligature clusters followed by a glyph that starts with the ligature's
    /// last character keep only their first character; the rest goes to the cluster after them.
    static func ligaturesBeforeTheirLetter(_ clusters: inout [cairo_text_cluster_t], text: [CChar]) {
        var byte = 0, carried = 0
        for c in clusters.indices {
            let start = byte - carried, end = byte + Int(clusters[c].num_bytes)
            byte = end
            clusters[c].num_bytes += Int32(carried)
            carried = 0
            // A one-byte cluster is no ligature; most clusters are, so they are passed by before
            // their characters are gathered.
            guard end - start > 1, clusters[c].num_glyphs == 1, c + 1 < clusters.count, clusters[c + 1].num_glyphs > 0,
                  clusters[c + 1].num_bytes > 0 else { continue }
            let characters = starts(of: text, start..<end)
            guard characters.count > 1, let last = characters.last,
                  text[last..<end] == text[end..<min(text.count, end + (end - last))] else { continue }
            carried = end - characters[1]
            clusters[c].num_bytes -= Int32(carried)
        }
    }

    /// A left-to-right run's text carried by its first glyph: all of it on its first cluster with a
    /// glyph, none on the others. Carried word by word, the gap after each word's first glyph would
    /// still read as the end of a line.
    static func textOnTheFirstGlyph(_ clusters: inout [cairo_text_cluster_t]) {
        guard let first = clusters.firstIndex(where: { $0.num_glyphs > 0 }) else { return }
        let total = clusters.reduce(Int32(0)) { $0 + $1.num_bytes }
        var out: [cairo_text_cluster_t] = []
        out.reserveCapacity(clusters.count)
        for (c, cluster) in clusters.enumerated() where c >= first && cluster.num_glyphs > 0 {
            out.append(cairo_text_cluster_t(num_bytes: c == first ? total : 0, num_glyphs: cluster.num_glyphs))
        }
        clusters = out
    }

    /// Where each character of `text[range]` starts.
    private static func starts(of text: [CChar], _ range: Range<Int>) -> [Int] {
        range.filter { UInt8(bitPattern: text[$0]) & 0xC0 != 0x80 }
    }

    /// Letter spacing on the run: its letters stand apart by as much as readers take for a gap between words.
    private static func isLetterSpaced(_ analysis: PangoAnalysis) -> Bool {
        var attr = analysis.extra_attrs
        while let a = attr {
            attr = a.pointee.next
            guard let attribute = a.pointee.data?.assumingMemoryBound(to: PangoAttribute.self),
                  attribute.pointee.klass.pointee.type == PANGO_ATTR_LETTER_SPACING else { continue }
            if UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrInt.self).pointee.value != 0 { return true }
        }
        return false
    }

    /// Pango's own walk of the clusters (any direction).
    private static func iteratedClusters(_ run: UnsafeMutablePointer<PangoGlyphItem>, text: UnsafePointer<CChar>,
                                         glyphString: UnsafeMutablePointer<PangoGlyphString>, backward: Bool) -> [cairo_text_cluster_t] {
        var clusters: [cairo_text_cluster_t] = []
        var iter = PangoGlyphItemIter()
        if pango_glyph_item_iter_init_start(&iter, run, text) != 0 {
            repeat {
                var bytes: Int32 = 0
                var b = Int(iter.start_index)
                while b < Int(iter.end_index) {
                    if isSoftHyphen(text, at: b) { b += 2; continue }
                    bytes += 1; b += 1
                }
                var count = backward ? iter.start_glyph - iter.end_glyph : iter.end_glyph - iter.start_glyph
                for g in min(iter.start_glyph, iter.end_glyph + 1)..<max(iter.start_glyph + 1, iter.end_glyph) {
                    let glyph = glyphString.pointee.glyphs[Int(g)].glyph
                    if glyph == PANGO_GLYPH_EMPTY || glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 { count -= 1 }
                }
                if bytes > 0 || count > 0 { clusters.append(cairo_text_cluster_t(num_bytes: bytes, num_glyphs: count)) }
            } while pango_glyph_item_iter_next_cluster(&iter) != 0
        }
        return clusters
    }

    /// Whether Pango drew a hyphen the run's text and clusters now carry.
    private static func finish(_ kept: inout [CChar], _ clusters: inout [cairo_text_cluster_t], analysis: PangoAnalysis) -> Bool {
        // Pango sets the flag on the run a hyphenated line ends with and draws the hyphen in its
        // last cluster (in place of a soft hyphen, or after the last letter). That cluster's text
        // is the run's last bytes, and clusters run in the text's order in either direction (a
        // right-to-left run's glyphs are taken from the end, cairo's BACKWARD flag): the hyphen's
        // byte joins the last cluster. Given to the first, it would shift every cluster's bytes by
        // one, into the middle of a character of Hebrew or Arabic, and cairo refuses the run.
        if analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_NEED_HYPHEN) != 0, !clusters.isEmpty {
            kept.append(CChar(UInt8(ascii: "-")))
            clusters[clusters.count - 1].num_bytes += 1
            return true
        }
        return false
    }

    /// U+00AD in UTF-8 (C2 AD).
    private static func isSoftHyphen(_ text: UnsafePointer<CChar>, at i: Int) -> Bool {
        UInt8(bitPattern: text[i]) == 0xC2 && UInt8(bitPattern: text[i + 1]) == 0xAD
    }
}
