import Foundation
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
        let words = Self.wordRanges(title)
        guard words.count > 1 else { return unspacedBreaks(title, style: style, width: width, maxHeight: maxHeight) }
        let spans = SpanWidths(title: title, words: words, style: style, width: width, typesetter: typesetter)
        // The fewest lines that break well are the best: the split among them is already the most even.
        for count in 1...words.count {
            guard let cuts = spans.evenest(lines: count, strict: strict) else { continue }
            let lines = zip([0] + cuts, cuts + [words.count]).map { spans.text($0, $1) }
            return fixed(lines, style: style, width: width, alignment: .start).height <= maxHeight ? lines : nil
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

    func fixed(_ lines: [String], style: TextStyle, width: Double, alignment: TextAlignment) -> TextLayout {
        typesetter.layout(lines.joined(separator: "\n"), style: style, width: width, alignment: alignment, hyphenate: false)
    }

    static let noBreakSpaces: Set<Character> = ["\u{00A0}", "\u{2007}", "\u{202F}"]

    static func lineTexts(_ layout: TextLayout) -> [String] {
        layout.lines.map { $0.text.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The words between the spaces a line may break at; a no-break space holds its words together.
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

/// The width Pango gives each run of a title's words set as one line, measured once and only for
/// runs that fit the column, and the most even breaks they allow.
final class SpanWidths {
    let title: String
    let words: [Range<String.Index>]
    let style: TextStyle
    let column: Double
    let typesetter: Typesetter
    private var measured: [Int: Double] = [:]

    init(title: String, words: [Range<String.Index>], style: TextStyle, width: Double, typesetter: Typesetter) {
        self.title = title; self.words = words; self.style = style; self.column = width; self.typesetter = typesetter
    }

    /// Words `from..<to` with one space between each: a tab or a run of spaces typed into a title
    /// is not spacing a designer would keep.
    func text(_ from: Int, _ to: Int) -> String { words[from..<to].map { String(title[$0]) }.joined(separator: " ") }

    /// The width of words `from..<to` on one line; infinity when a longer run already overflowed.
    func width(_ from: Int, _ to: Int) -> Double {
        let key = from * (words.count + 1) + to
        if let w = measured[key] { return w }
        let w: Double
        if to - from > 1, width(from, to - 1) > column {
            w = .infinity
        } else {
            let line = typesetter.layout(text(from, to), style: style, width: 0, alignment: .start, hyphenate: false)
            w = line.lines.count == 1 ? line.lines[0].width : .infinity
        }
        measured[key] = w
        return w
    }

    /// Whether words `from..<to` may make a line: they fit, and in `strict` mode a title of three
    /// words or more has no word alone on a line (a smaller size is tried first).
    func allowed(_ from: Int, _ to: Int, strict: Bool) -> Bool {
        guard width(from, to) <= column else { return false }
        return !strict || to - from > 1 || words.count < 3
    }

    /// The line starts (after the first) that split the words into `lines` allowed lines with the
    /// least sum of squared widths, or nil when no split is allowed.
    func evenest(lines: Int, strict: Bool) -> [Int]? {
        let n = words.count
        guard lines <= n else { return nil }
        // cost[k][j]: the best k lines holding words 0..<j; from[k][j]: where the last of them starts.
        var cost = Array(repeating: Array(repeating: Double.infinity, count: n + 1), count: lines + 1)
        var from = Array(repeating: Array(repeating: -1, count: n + 1), count: lines + 1)
        cost[0][0] = 0
        for k in 1...lines {
            for j in k...n {
                for i in (k - 1)..<j where cost[k - 1][i].isFinite && allowed(i, j, strict: strict) {
                    let w = width(i, j)
                    let c = cost[k - 1][i] + w * w
                    if c < cost[k][j] { cost[k][j] = c; from[k][j] = i }
                }
            }
        }
        guard cost[lines][n].isFinite else { return nil }
        var cuts: [Int] = []
        var j = n
        for k in stride(from: lines, to: 1, by: -1) {
            j = from[k][j]
            cuts.insert(j, at: 0)
        }
        return cuts
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
