import Foundation
import BookConfig

/// Sets a title the way a book designer breaks it by hand: lines of similar length, no word alone
/// on a line, no word cut in two. Pango's own breaking is greedy (it fills the first line and
/// leaves the rest, "…Festival of / Lights"); here, for each line count from the fewest up, the
/// narrowest wrap width that still gives that many lines is found, which evens the lines out, and
/// a layout that leaves a short word by itself is refused. When no line count works at a size, the
/// title is set smaller, down to the role's minimum size.
public struct TitleSetter {
    public let typesetter: Typesetter

    public init(typesetter: Typesetter) { self.typesetter = typesetter }

    /// How many more lines than the fewest are tried at one size before the title is set smaller:
    /// a title that needs many more lines than it could have reads as a column of words.
    static let extraLines = 2
    /// Each size tried is this much of the one before.
    static let sizeStep = 0.92
    /// A line of one word is refused when it is shorter than this share of the longest line.
    static let shortLineShare = 0.5

    /// The title set from `style.size` down to `minSize`, centred or aligned as `alignment` says,
    /// in a column `width` wide and at most `maxHeight` tall. Its lines are fixed by line separators,
    /// so the layout is as wide as the column and draws like any text box. A title that holds its
    /// own line breaks keeps them and is only made smaller to fit.
    public func set(_ title: String, style: TextStyle, minSize: Double, width: Double, maxHeight: Double = .infinity,
                    alignment: TextAlignment = .center) -> TextLayout {
        let sizes = Self.sizes(from: style.size, to: min(minSize, style.size))
        var style = style
        if title.contains(where: \.isNewline) {
            var layout: TextLayout!
            for size in sizes {
                style.size = size
                layout = typesetter.layout(title, style: style, width: width, alignment: alignment, hyphenate: false)
                if layout.height <= maxHeight, !splitsWords(layout, title: title) { break }
            }
            return layout
        }
        var fallback: [String]?
        for size in sizes {
            style.size = size
            if let lines = breaks(title, style: style, width: width, maxHeight: maxHeight, strict: true) {
                return fixed(lines, style: style, width: width, alignment: alignment)
            }
            if size == sizes.last {
                fallback = breaks(title, style: style, width: width, maxHeight: maxHeight, strict: false)
            }
        }
        // Nothing breaks well even at the smallest size: the most even lines there, whatever they hold.
        let lines = fallback ?? Self.lineTexts(typesetter.layout(title, style: style, width: width, alignment: alignment, hyphenate: false))
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

    /// The lines of the first good layout at `style`'s size, from the fewest lines up; with
    /// `strict` false, the most even layout of the fewest lines that fits, lone words allowed.
    func breaks(_ title: String, style: TextStyle, width: Double, maxHeight: Double, strict: Bool) -> [String]? {
        let words = Self.words(title)
        let natural = layout(title, style: style, width: width)
        let fewest = natural.lines.count
        let spaced = words.count > 1
        // A spaced title never breaks inside a word unless a word is wider than the column; one in
        // a script written without spaces breaks between its characters, so any width is fair.
        let narrowest = spaced ? min(width, widestWord(words, style: style)) : width / Double(max(fewest, 1)) / 2
        for count in fewest...(fewest + Self.extraLines) {
            guard !spaced || count <= words.count else { break }
            let candidate = count == fewest ? evenest(title, lines: count, style: style, from: narrowest, to: width) ?? natural
                                            : evenest(title, lines: count, style: style, from: narrowest, to: width)
            guard let candidate, candidate.lines.count == count else { continue }
            guard candidate.height <= maxHeight else { break }
            if !strict || isGood(candidate, title: title, words: words) { return Self.lineTexts(candidate) }
        }
        return nil
    }

    /// The layout of `title` in `lines` lines at the narrowest width that keeps it to that many
    /// (a binary search over the wrap width), or nil when even the narrowest gives fewer.
    func evenest(_ title: String, lines: Int, style: TextStyle, from low: Double, to high: Double) -> TextLayout? {
        var tooNarrow = low, wide = high
        let atLow = layout(title, style: style, width: low)
        if atLow.lines.count <= lines {
            return atLow.lines.count == lines ? atLow : nil
        }
        var best = layout(title, style: style, width: high)
        guard best.lines.count <= lines else { return nil }
        while wide - tooNarrow > 0.5 {
            let mid = (tooNarrow + wide) / 2
            let attempt = layout(title, style: style, width: mid)
            if attempt.lines.count <= lines {
                wide = mid
                best = attempt
            } else {
                tooNarrow = mid
            }
        }
        return best
    }

    /// No word cut in two, no word left alone at the end, no short word alone on any line.
    func isGood(_ layout: TextLayout, title: String, words: [Substring]) -> Bool {
        guard !splitsWords(layout, title: title) else { return false }
        guard words.count >= 3, layout.lines.count > 1 else { return true }
        let counts = layout.lines.map { Self.words($0.text).count }
        if counts.last == 1 { return false }
        let longest = layout.lines.map(\.width).max() ?? 0
        return !zip(counts, layout.lines).contains { $0 == 1 && $1.width < longest * Self.shortLineShare }
    }

    /// A spaced title's word broken over two lines gives more words on the lines than in the title.
    func splitsWords(_ layout: TextLayout, title: String) -> Bool {
        let words = Self.words(title)
        guard words.count > 1 || title.count > 1 else { return false }
        let onLines = layout.lines.reduce(0) { $0 + Self.words($1.text).count }
        if words.count > 1 { return onLines > words.count }
        // One word and no spaces: a letter word must stay whole; a script without spaces may break.
        return layout.lines.count > 1 && title.unicodeScalars.allSatisfy { Self.isSpacedScript($0) }
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

    func widestWord(_ words: [Substring], style: TextStyle) -> Double {
        let eachOnALine = typesetter.layout(words.joined(separator: "\n"), style: style, width: 0, alignment: .start, hyphenate: false)
        return eachOnALine.lines.map(\.width).max() ?? 0
    }

    func layout(_ text: String, style: TextStyle, width: Double) -> TextLayout {
        typesetter.layout(text, style: style, width: width, alignment: .start, hyphenate: false)
    }

    func fixed(_ lines: [String], style: TextStyle, width: Double, alignment: TextAlignment) -> TextLayout {
        typesetter.layout(lines.joined(separator: "\n"), style: style, width: width, alignment: alignment, hyphenate: false)
    }

    static func lineTexts(_ layout: TextLayout) -> [String] {
        layout.lines.map { $0.text.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func words<S: StringProtocol>(_ text: S) -> [Substring] {
        String(text).split(whereSeparator: \.isWhitespace)
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
