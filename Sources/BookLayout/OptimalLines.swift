import CGraphics

/// Chooses a block's line breaks with `ParagraphBreaker`, on what Pango measured of it laid out in
/// one line per paragraph: each character's width from the shaped glyphs, break opportunities
/// from Pango's log attributes, hyphenation points from where the hyphenator put soft hyphens.
/// The result is what Pango needs to set exactly those lines: the text with soft hyphens where a
/// line ends at a hyphenation point, breaks removed inside every line and added where a token is broken
/// after `/ . _ - ? & = #`, and a layout width every chosen line fits in.
struct OptimalLines {
    /// The block's text to lay out: the measured text with a soft hyphen where a line ends at a
    /// hyphenation point.
    var text: [UInt8]
    /// Byte offset of every line's start in `text`, in Pango's line order.
    var lineStarts: [Int]
    /// Byte ranges of `text` inside which no break may be taken (one per line).
    var keepTogether: [Range<Int>]
    /// Byte ranges that start at a break Pango would not offer on its own.
    var breakBefore: [Range<Int>]
    /// Layout width, in Pango units: the column, widened by as much as a line's spaces are to shrink.
    var layoutWidth: Int32
    /// The chosen lines in characters of the measured text, for setting them from its glyphs
    /// (see `BrokenLines`).
    var lines: [Line]
    /// Where each character of the measured text (and its end) is in `text`.
    var byteOf: [Int]
    /// Where each character (and the end) is in the measured text itself.
    var measuredByteOf: [Int]

    struct Line {
        var start: Int
        var end: Int
        /// Pango draws a hyphen at its end (a soft hyphen went there, or the break is inside a word).
        var needsHyphen: Bool
        /// A soft hyphen went in at its end: the last character of its text.
        var softHyphen: Bool
        var paragraphStart: Bool
        /// The last line of a paragraph (or of a run between forced breaks): never justified, and
        /// a space it ends with keeps its width.
        var lastOfRun: Bool
    }

    struct Settings {
        var width: Int32
        var indent: Int32
        var justify: Bool
        var hyphenWidth: Double
        /// The text's size in Pango units.
        var em: Double
        /// Justified lines may shrink their spaces (three eighths at most: a little more than TeX's
        /// third, which on the memoirs left more loose lines than Typst sets).
        var shrink = true
        /// Where the hyphenator allows a break (a soft hyphen goes there when a line ends at it), as
        /// character positions of the measured text, in order.
        var hyphenPoints: [Int] = []
    }

    /// Nil when the layout holds nothing to break (no characters, no lines).
    init?(measured layout: OpaquePointer, settings: Settings) {
        guard let textPointer = pango_layout_get_text(layout) else { return nil }
        let byteCount = Int(strlen(textPointer))
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(textPointer).assumingMemoryBound(to: UInt8.self), count: byteCount)
        var attrCount: Int32 = 0
        guard byteCount > 0, let attrs = pango_layout_get_log_attrs_readonly(layout, &attrCount) else { return nil }
        var byteOf: [Int] = []
        byteOf.reserveCapacity(byteCount + 1)
        var charAt = [Int](repeating: 0, count: byteCount + 1)
        for i in 0..<byteCount {
            if bytes[i] & 0xC0 != 0x80 { byteOf.append(i) }
            charAt[i] = byteOf.count - 1
        }
        let count = byteOf.count
        byteOf.append(byteCount)
        charAt[byteCount] = count
        guard Int(attrCount) == count + 1 else { return nil }

        // Widths per character, and the lines of the measured layout: one per run between forced breaks.
        var widths = [Double](repeating: 0, count: count)
        var interCharacter = [Bool](repeating: false, count: count)
        struct Run { var start: Int, end: Int, paragraphStart: Bool }
        var runs: [Run] = []
        var logical: [Int32] = []
        var list = pango_layout_get_lines_readonly(layout)
        while let node = list {
            list = node.pointee.next
            guard let line = node.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) else { continue }
            let start = Int(line.pointee.start_index), end = start + Int(line.pointee.length)
            runs.append(Run(start: charAt[min(start, byteCount)], end: charAt[min(end, byteCount)],
                            paragraphStart: line.pointee.is_paragraph_start != 0))
            var glyphRuns = line.pointee.runs
            while let runNode = glyphRuns {
                glyphRuns = runNode.pointee.next
                guard let run = runNode.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                      let item = run.pointee.item else { continue }
                let chars = Int(item.pointee.num_chars)
                let first = charAt[min(Int(item.pointee.offset), byteCount)]
                guard chars > 0, first + chars <= count else { continue }
                if logical.count < chars { logical = [Int32](repeating: 0, count: chars) }
                logical.withUnsafeMutableBufferPointer { pango_glyph_item_get_logical_widths(run, textPointer, $0.baseAddress) }
                for k in 0..<chars { widths[first + k] = Double(logical[k]) }
                if InterCharacterScripts.contains(item) {
                    for k in 0..<chars { interCharacter[first + k] = true }
                }
            }
        }
        guard !runs.isEmpty else { return nil }

        var natural = [Double](repeating: 0, count: count + 1)
        var stretch = natural, shrink = natural
        for c in 0..<count {
            let space = attrs[c].is_white != 0 && attrs[c].is_expandable_space != 0
            natural[c + 1] = natural[c] + widths[c]
            // Characters of a script written without spaces give a tenth of themselves, as
            // `Justification` spreads such a line between its characters.
            stretch[c + 1] = stretch[c] + (space ? widths[c] / 2 : interCharacter[c] && attrs[c].is_white == 0 ? widths[c] / 10 : 0)
            shrink[c + 1] = shrink[c] + (space && settings.shrink ? widths[c] * 3 / 8 : 0)
        }

        var hyphenAt = [Bool](repeating: false, count: count + 1)
        for p in settings.hyphenPoints where p > 0 && p < count { hyphenAt[p] = true }

        var parameters = ParagraphBreaker.Parameters()
        parameters.justify = settings.justify
        parameters.raggedStretch = 2 * settings.em

        // A little narrower than the column: the glyphs Pango shapes at a break (a hyphen kerned
        // against the letter before it) may come out a little wider than measured unbroken.
        let column = Double(settings.width) - 205, indent = Double(settings.indent)
        var hyphenBefore = [Bool](repeating: false, count: count + 1)  // soft hyphens to put in
        var lineStartChars: [Int] = []
        var added: [Int] = []  // chosen breaks Pango does not offer
        var chosen: [Line] = []
        var excess = 0.0
        for run in runs {
            let first = run.paragraphStart ? column - max(indent, 0) : column + min(indent, 0)
            let rest = column + min(indent, 0)
            let candidates = Self.candidates(run.start, run.end, attrs: attrs, bytes: bytes, byteOf: byteOf,
                                             natural: natural, hyphenWidth: settings.hyphenWidth, widest: max(first, rest),
                                             hyphens: hyphenAt)
            let breaker = ParagraphBreaker(natural: natural, stretch: stretch, shrink: shrink, start: run.start,
                                           candidates: candidates, firstLineWidth: first, lineWidth: rest, parameters: parameters)
            var lineStart = run.start
            let breaks = breaker.breaks()
            for (n, index) in breaks.enumerated() {
                let candidate = candidates[index]
                lineStartChars.append(lineStart)
                let width = natural[candidate.contentEnd] - natural[lineStart] + candidate.addedWidth
                excess = max(excess, width - (n == 0 ? first : rest))
                switch candidate.kind {
                case .hyphen: hyphenBefore[candidate.position] = hyphenAt[candidate.position]
                case .inToken, .character: added.append(candidate.position)
                default: break
                }
                chosen.append(Line(start: lineStart, end: candidate.position,
                                   needsHyphen: hyphenBefore[candidate.position] || attrs[candidate.position].break_inserts_hyphen != 0,
                                   softHyphen: hyphenBefore[candidate.position],
                                   paragraphStart: n == 0 && run.paragraphStart, lastOfRun: n == breaks.count - 1))
                lineStart = candidate.position
            }
        }

        // The text with a soft hyphen where a line ends at a hyphenation point, and where each
        // character went.
        var out: [UInt8] = []
        out.reserveCapacity(byteCount + 2 * lineStartChars.count)
        var newByteOf = [Int](repeating: 0, count: count + 1)
        for c in 0..<count {
            if hyphenBefore[c] { out.append(contentsOf: [0xC2, 0xAD]) }
            newByteOf[c] = out.count
            out.append(contentsOf: bytes[byteOf[c]..<byteOf[c + 1]])
        }
        newByteOf[count] = out.count
        text = out
        lineStarts = lineStartChars.map { newByteOf[$0] }
        var keepTogether: [Range<Int>] = []
        var breakBefore: [Range<Int>] = []
        for (i, start) in lineStartChars.enumerated() {
            var end = i + 1 < lineStartChars.count ? lineStartChars[i + 1] : count
            if let runEnd = runs.first(where: { $0.start <= start && start < $0.end })?.end { end = min(end, runEnd) }
            if end - start > 1 { keepTogether.append(newByteOf[start]..<newByteOf[end]) }
            if added.contains(start) { breakBefore.append(newByteOf[start]..<newByteOf[max(end, start + 1)]) }
        }
        self.keepTogether = keepTogether
        self.breakBefore = breakBefore
        self.lines = chosen
        self.byteOf = newByteOf
        self.measuredByteOf = byteOf
        // Room for rounding between the measured glyphs and those Pango shapes at the breaks.
        layoutWidth = settings.width + Int32(max(0, excess).rounded(.up)) + 512
    }

    /// The places a line of run `start..<end` may end, in order, the run's end last.
    private static func candidates(_ start: Int, _ end: Int, attrs: UnsafePointer<PangoLogAttr>,
                                   bytes: UnsafeBufferPointer<UInt8>, byteOf: [Int], natural: [Double],
                                   hyphenWidth: Double, widest: Double, hyphens: [Bool]) -> [ParagraphBreaker.Candidate] {
        var list: [ParagraphBreaker.Candidate] = []
        func scalar(_ c: Int) -> UInt32 {
            let i = byteOf[c], n = byteOf[c + 1] - i
            let lead = UInt32(bytes[i])
            switch n {
            case 1: return lead
            case 2: return (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
            case 3: return (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
            default: return (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                | UInt32(bytes[i + 3] & 0x3F)
            }
        }
        func isWhite(_ c: Int) -> Bool { attrs[c].is_white != 0 }
        func isDash(_ s: UInt32) -> Bool { s == 0x2D || s == 0x2010 || s == 0x2013 || s == 0x2014 }
        /// `/ . _ - ? & = #`: a token such as a path or an address may break after one.
        func isTokenPunctuation(_ s: UInt32) -> Bool {
            switch s {
            case 0x2F, 0x2E, 0x5F, 0x2D, 0x3F, 0x26, 0x3D, 0x23: return true
            default: return false
            }
        }
        // Tokens: maximal runs without white space, for breaks inside addresses and paths.
        var tokenStart = start, tokenEnd = start
        /// A break inside a token is taken neither after its first characters ("in /" and "etc/"
        /// apart) nor before its last.
        func wellInsideToken(_ p: Int) -> Bool { p - tokenStart >= 3 && tokenEnd - p >= 3 }
        var p = start + 1
        while p < end {
            if isWhite(p - 1) || p - 1 == start {
                tokenStart = isWhite(p - 1) ? p : p - 1
                tokenEnd = tokenStart
                while tokenEnd < end && !isWhite(tokenEnd) { tokenEnd += 1 }
            }
            if attrs[p].is_line_break != 0 && attrs[p].is_mandatory_break == 0 {
                if attrs[p].break_inserts_hyphen != 0 {
                    list.append(.init(position: p, contentEnd: p, kind: .hyphen, addedWidth: hyphenWidth))
                } else if isWhite(p - 1) {
                    var contentEnd = p - 1
                    while contentEnd > start && isWhite(contentEnd - 1) { contentEnd -= 1 }
                    list.append(.init(position: p, contentEnd: contentEnd, kind: .space))
                } else if isDash(scalar(p - 1)) {
                    list.append(.init(position: p, contentEnd: p, kind: .dash))
                } else if isTokenPunctuation(scalar(p - 1)) {
                    if wellInsideToken(p) { list.append(.init(position: p, contentEnd: p, kind: .inToken)) }
                } else {
                    list.append(.init(position: p, contentEnd: p, kind: .space))
                }
            } else if hyphens[p] && attrs[p].is_char_break != 0 {
                list.append(.init(position: p, contentEnd: p, kind: .hyphen, addedWidth: hyphenWidth))
            } else if attrs[p].is_char_break != 0 && !isWhite(p) {
                // p is inside the token here (no white space at it), so the token runs on past it.
                if wellInsideToken(p) && isTokenPunctuation(scalar(p - 1)) && !isTokenPunctuation(scalar(p)) {
                    list.append(.init(position: p, contentEnd: p, kind: .inToken,
                                      addedWidth: attrs[p].break_inserts_hyphen != 0 ? hyphenWidth : 0))
                } else {
                    // Only inside a token wider than a line: the last resort.
                    // Pango draws a hyphen there when the break is inside a word.
                    if natural[tokenEnd] - natural[tokenStart] > widest {
                        list.append(.init(position: p, contentEnd: p, kind: .character,
                                          addedWidth: attrs[p].break_inserts_hyphen != 0 ? hyphenWidth : 0))
                    }
                }
            }
            p += 1
        }
        var contentEnd = end
        while contentEnd > start && isWhite(contentEnd - 1) { contentEnd -= 1 }
        list.append(.init(position: end, contentEnd: contentEnd, kind: .end))
        return list
    }
}
