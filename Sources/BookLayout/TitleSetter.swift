import Foundation
import CShim
import BookConfig

/// Sets a title the way a book designer breaks it by hand: lines of similar length, no word alone
/// on a line, no word cut in two. Pango's own breaking is greedy (it fills each line in turn and
/// leaves the rest, "…Festival of / Lights"). Here every run of words a line could hold is measured
/// with Pango, and for each line count from the fewest up the breaks that make the lines most even
/// are chosen (least sum of squared line widths: with the words fixed, the most even split), with
/// no word alone on a line. When no line count works at a size, the title is set smaller, down to the role's minimum size.
/// A title in a script written without spaces is balanced by narrowing Pango's wrap width instead.
struct TitleSetter {
    let typesetter: Typesetter

    init(typesetter: Typesetter) { self.typesetter = typesetter }

    /// Each size tried is this much of the one before.
    static let sizeStep = 0.92

    /// The title set from `style.size` down to `minSize`, centred or aligned as `alignment` says,
    /// in a column `width` wide and at most `maxHeight` tall. Its lines are fixed by line separators,
    /// so the layout is as wide as the column and draws like any text box. A title that holds its
    /// own line breaks keeps them and is only made smaller to fit.
    func set(_ title: String, style: TextStyle, minSize: Double, width: Double, maxHeight: Double = .infinity,
                    alignment: TextAlignment = .center) -> TextLayout {
        let sizes = Self.sizes(from: style.size, to: min(minSize, style.size))
        var style = style
        if title.contains(where: \.isNewline) {
            var layout: TextLayout!
            for size in sizes {
                style.size = size
                layout = typesetter.layout(title, style: style, width: width, alignment: alignment, hyphenate: false)
                if layout.height <= maxHeight, layout.lines.count == title.split(whereSeparator: \.isNewline).count { break }
            }
            return layout
        }
        for size in sizes {
            style.size = size
            if let lines = breaks(title, style: style, width: width, maxHeight: maxHeight, strict: true) {
                return fixed(lines, style: style, width: width, alignment: alignment)
            }
        }
        // Nothing breaks well even at the smallest size: the most even lines there, whatever they
        // hold, or Pango's own breaks when a word is wider than the column.
        let lines = breaks(title, style: style, width: width, maxHeight: .infinity, strict: false)
            ?? Self.lineTexts(typesetter.layout(title, style: style, width: width, alignment: alignment, hyphenate: false))
        return fixed(lines, style: style, width: width, alignment: alignment)
    }

    /// The sizes tried, largest first; the last is the minimum.
    static func sizes(from largest: Double, to smallest: Double) -> [Double] {
        var sizes: [Double] = []
        var size = largest
        while size > smallest + 0.01 {
            sizes.append(size)
            size *= sizeStep
        }
        return sizes + [smallest]
    }

    /// The lines of the good layout with the fewest lines at `style`'s size, or nil when it is too
    /// tall or there is none; with `strict` false, words may stand alone.
    func breaks(_ title: String, style: TextStyle, width: Double, maxHeight: Double, strict: Bool) -> [String]? {
        // A title in a script written without spaces breaks between the words ICU's dictionaries
        // find there ("ハリネズミ / の / ハリー"), never inside one.
        let unspaced = !title.unicodeScalars.allSatisfy(Self.isSpacedScript)
        let words = unspaced ? Self.dictionaryWordRanges(title, language: typesetter.language) : Self.wordRanges(title)
        guard words.count > 1 else { return unspacedBreaks(title, style: style, width: width, maxHeight: maxHeight) }
        let spans = SpanWidths(title: title, words: words, style: style, width: width, typesetter: typesetter,
                               separator: unspaced ? "" : " ")
        // A span measured as fitting may still wrap once set (summed widths round differently from
        // a line shaped whole): such a span is ruled out and the breaks chosen again.
        for _ in 0..<4 {
            guard let cuts = spans.fewestEvenest(strict: strict) else { return nil }
            let bounds = Array(zip([0] + cuts, cuts + [words.count]))
            let lines = bounds.map { spans.text($0.0, $0.1) }
            let set = fixed(lines, style: style, width: width, alignment: .start)
            if set.lines.count == lines.count { return set.height <= maxHeight ? lines : nil }
            for (from, to) in bounds where !spans.fitsWhenSet(from, to) { spans.rule(out: from, to) }
        }
        return nil
    }

    /// A title with no spaces: one word of a spaced script must fit whole; a script written without
    /// spaces is evened out by the narrowest wrap width that keeps Pango's fewest lines.
    func unspacedBreaks(_ title: String, style: TextStyle, width: Double, maxHeight: Double) -> [String]? {
        let natural = layout(title, style: style, width: width)
        guard natural.height <= maxHeight else { return nil }
        if title.unicodeScalars.allSatisfy(Self.isSpacedScript) {
            return natural.lines.count == 1 ? Self.lineTexts(natural) : nil
        }
        let count = natural.lines.count
        var tooNarrow = width / Double(count) / 2, wide = width, best = natural
        while wide - tooNarrow > 0.5 {
            let mid = (tooNarrow + wide) / 2
            let attempt = layout(title, style: style, width: mid)
            if attempt.lines.count <= count { wide = mid; best = attempt } else { tooNarrow = mid }
        }
        return Self.lineTexts(best)
    }

    /// Scripts whose words are separated by spaces, so a break between two letters cuts a word.
    static func isSpacedScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x20000...0x3FFFF:
            return false
        default:
            return true
        }
    }

    func layout(_ text: String, style: TextStyle, width: Double) -> TextLayout {
        typesetter.layout(text, style: style, width: width, alignment: .start, hyphenate: false)
    }

    /// The lines as one paragraph broken where they end. A title of more lines than anyone sets
    /// by hand is set as paragraphs of one line each instead, which Pango lays out apart: the lines
    /// of one paragraph cost it a walk from the paragraph's start for each line.
    func fixed(_ lines: [String], style: TextStyle, width: Double, alignment: TextAlignment) -> TextLayout {
        let separator = lines.count > Self.linesSetAsOneParagraph ? "\n\n" : "\n"
        return typesetter.layout(lines.joined(separator: separator), style: style, width: width, alignment: alignment, hyphenate: false)
    }

    static let linesSetAsOneParagraph = 24

    static let noBreakSpaces: Set<Character> = ["\u{00A0}", "\u{2007}", "\u{202F}"]

    static func lineTexts(_ layout: TextLayout) -> [String] {
        layout.lines.map { $0.text.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The words between the spaces a line may break at; a no-break space holds its words together.
    /// The words of a title as ICU's word break iterator finds them for `language`, each with the
    /// spaces and closing punctuation after it, and opening punctuation joined to the word after
    /// it, so no line starts with a closing mark or ends with an opening one. Nil breaks from ICU:
    /// the title as one word.
    static func dictionaryWordRanges(_ text: String, language: String) -> [Range<String.Index>] {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return [] }
        var offsets = [Int32](repeating: 0, count: bytes.count)
        let found = bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { c in
                shim_word_breaks(c.baseAddress, Int32(c.count), language, &offsets, Int32(offsets.count))
            }
        }
        guard found > 0 else { return [text.startIndex..<text.endIndex] }
        let cuts = offsets.prefix(Int(found)).map { text.utf8.index(text.utf8.startIndex, offsetBy: Int($0)) }
        let bounds = [text.startIndex] + cuts + [text.endIndex]
        var segments = zip(bounds, bounds.dropFirst()).map { $0..<$1 }.filter { !$0.isEmpty }
        func letters(_ r: Range<String.Index>) -> Bool { text[r].unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil } }
        func opening(_ r: Range<String.Index>) -> Bool {
            text[r].unicodeScalars.allSatisfy { [.openPunctuation, .initialPunctuation].contains($0.properties.generalCategory) }
        }
        var merged: [Range<String.Index>] = []
        var carried: String.Index?
        for segment in segments {
            if !letters(segment), opening(segment) {
                carried = carried ?? segment.lowerBound
                continue
            }
            let start = carried ?? segment.lowerBound
            carried = nil
            if !letters(segment), let last = merged.last {
                merged[merged.count - 1] = last.lowerBound..<segment.upperBound
            } else {
                merged.append(start..<segment.upperBound)
            }
        }
        if let carried {
            if let last = merged.last { merged[merged.count - 1] = last.lowerBound..<text.endIndex } else { merged = [carried..<text.endIndex] }
        }
        segments = merged
        return segments
    }

    static func wordRanges(_ text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var start: String.Index?
        for i in text.indices {
            if text[i].isWhitespace, !noBreakSpaces.contains(text[i]) {
                if let s = start { ranges.append(s..<i); start = nil }
            } else if start == nil {
                start = i
            }
        }
        if let s = start { ranges.append(s..<text.endIndex) }
        return ranges
    }
}

/// The width each run of a title's words takes set as one line, and the breaks they allow. A
/// title of ordinary length has each run that fits the column set by Pango; a long one (hundreds
/// of words, which no designer balances but a book may hold) is measured once, as one line, and a
/// run's width is the sum of its clusters' advances, so the work stays linear in its length.
final class SpanWidths {
    let title: String
    let words: [Range<String.Index>]
    let style: TextStyle
    let column: Double
    let typesetter: Typesetter
    private var measured: [Int: Double] = [:]
    private var ruledOut: Set<Int> = []
    /// For a long title: the advance before each UTF-8 byte of the words joined by single spaces,
    /// and where each word starts and ends there.
    private var prefix: [Double] = []
    private var wordBytes: [Range<Int>] = []

    /// Beyond this many words, runs are measured from the one line instead of each by Pango.
    static let wordsMeasuredOneByOne = 64

    /// What joins two words on a line: a space, or nothing in a script written without spaces
    /// (where a word carries the spaces after it).
    let separator: String

    init(title: String, words: [Range<String.Index>], style: TextStyle, width: Double, typesetter: Typesetter,
         separator: String = " ") {
        self.title = title; self.words = words; self.style = style; self.column = width; self.typesetter = typesetter
        self.separator = separator
        if words.count > Self.wordsMeasuredOneByOne { measureOnce() }
    }

    /// Words `from..<to` with one space between each: a tab or a run of spaces typed into a title
    /// is not spacing a designer would keep.
    func text(_ from: Int, _ to: Int) -> String {
        let joined = words[from..<to].map { String(title[$0]) }.joined(separator: separator)
        return separator.isEmpty ? joined.trimmingCharacters(in: .whitespaces) : joined
    }

    private func key(_ from: Int, _ to: Int) -> Int { from * (words.count + 1) + to }

    /// The width of words `from..<to` on one line; infinity when ruled out.
    func width(_ from: Int, _ to: Int) -> Double {
        let key = key(from, to)
        if ruledOut.contains(key) { return .infinity }
        if !prefix.isEmpty { return prefix[wordBytes[to - 1].upperBound] - prefix[wordBytes[from].lowerBound] }
        if let w = measured[key] { return w }
        let line = typesetter.layout(text(from, to), style: style, width: 0, alignment: .start, hyphenate: false)
        let w = line.lines.count == 1 ? line.lines[0].width : .infinity
        measured[key] = w
        return w
    }

    /// Whether words `from..<to` stay one line when Pango sets them in the column.
    func fitsWhenSet(_ from: Int, _ to: Int) -> Bool {
        typesetter.layout(text(from, to), style: style, width: column, alignment: .start, hyphenate: false).lines.count == 1
    }

    func rule(out from: Int, _ to: Int) { ruledOut.insert(key(from, to)) }

    /// Whether words `from..<to` may make a line: they fit, and in `strict` mode a title of three
    /// words or more has no word alone on a line (a smaller size is tried first).
    func allowed(_ from: Int, _ to: Int, strict: Bool) -> Bool {
        guard width(from, to) <= column else { return false }
        return !strict || to - from > 1 || words.count < 3
    }

    /// The line starts (after the first) of the split into the fewest allowed lines and, among
    /// those, the least sum of squared widths (with the words fixed, the most even), or nil when no
    /// split is allowed. Both are sums over lines, so the pair compared in that order has optimal
    /// substructure and one pass finds it; a line holds only the words that fit the column, so the
    /// pass looks back over a line's worth of words at each word.
    func fewestEvenest(strict: Bool) -> [Int]? {
        let n = words.count
        var lines = Array(repeating: Int.max, count: n + 1)
        var cost = Array(repeating: Double.infinity, count: n + 1)
        var from = Array(repeating: -1, count: n + 1)
        lines[0] = 0; cost[0] = 0
        for j in 1...n {
            var i = j - 1
            while i >= 0 {
                let w = width(i, j)
                // Runs of more words are wider still.
                if w > column { break }
                if lines[i] != Int.max, allowed(i, j, strict: strict) {
                    let l = lines[i] + 1, c = cost[i] + w * w
                    if l < lines[j] || (l == lines[j] && c < cost[j]) { lines[j] = l; cost[j] = c; from[j] = i }
                }
                i -= 1
            }
        }
        guard lines[n] != Int.max else { return nil }
        var cuts: [Int] = []
        var j = from[n]
        while j > 0 { cuts.insert(j, at: 0); j = from[j] }
        return cuts
    }

    /// Lays the words out as one line joined by single spaces and adds up each cluster's advance
    /// by the byte it starts at.
    private func measureOnce() {
        var joined = ""
        for (k, w) in words.enumerated() {
            if k > 0 { joined += separator }
            let start = joined.utf8.count
            joined += title[w]
            wordBytes.append(start..<joined.utf8.count)
        }
        let line = typesetter.layout(joined, style: style, width: 0, alignment: .start, hyphenate: false)
        var advance = [Double](repeating: 0, count: joined.utf8.count + 1)
        line.forEachCluster { byte, width in if byte < advance.count { advance[byte] += width } }
        prefix = [Double](repeating: 0, count: advance.count + 1)
        for b in advance.indices { prefix[b + 1] = prefix[b] + advance[b] }
    }
}
extension LayoutContext {
    /// A title in `role`, broken into even lines and set smaller (to the role's `minSize`) before
    /// it breaks badly; `scale` enlarges the role as the template shows it, minimum included.
    func setTitle(_ text: String, role: TypeRole, width: Double, maxHeight: Double = .infinity, scale: Double = 1,
                  smallestScale: Double? = nil, alignment: TextAlignment? = nil) -> TextLayout {
        let style = self.style(role, scale: scale)
        let smallest = smallestScale.map { $0 * role.size } ?? (role.minSize ?? role.size) * scale
        return TitleSetter(typesetter: typesetter).set(text, style: style, minSize: min(smallest, style.size), width: width,
                                                       maxHeight: maxHeight, alignment: alignment ?? self.alignment(role))
    }
}
