extension QuoteMarks {
    /// `text` with its typewriter quotes curled: `"` pairs into `open`/`close`, `'` pairs into the
    /// inner marks, and a `'` inside a word or before a year's two digits ("don't", "'90s") into an
    /// apostrophe. Whether a mark opens or closes is read from its neighbours, and from whether a
    /// quotation is open in the paragraph (a blank line ends a paragraph), so that a French
    /// quotation typed with spaces inside its marks closes too. Other characters are kept as they are.
    public func curled(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x22 || $0 == 0x27 }) else { return text }
        let input = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var quoteOpen = false, innerDepth = 0
        var i = 0
        while i < input.count {
            let c = input[i]
            let before = out.last, after = i + 1 < input.count ? input[i + 1] : nil
            if c == "\n", after == "\n" || after == "\u{2029}" { quoteOpen = false; innerDepth = 0 }
            if let before, Self.isHebrew(before), c == "'" || (c == "\"" && after.map(Self.isWord) == true) {
                // Hebrew's geresh and gershayim, typed as quotes after a letter (ר' and צה"ל), mark
                // abbreviations: they are not quotation marks.
                out.append(c)
            } else if c == "\"" {
                let opens = Self.opensAfter(before)
                    ? !(quoteOpen && (after.map { Self.isSpace($0) || $0.properties.generalCategory.isPunctuation } ?? true))
                    : false
                if opens {
                    out.append(open)
                    if let space, let after, !Self.isNewline(after) {
                        while i + 1 < input.count, Self.isInlineSpace(input[i + 1]) { i += 1 }
                        out.append(space)
                    }
                } else {
                    if let space, let last = out.last, !Self.isNewline(last) {
                        while let last = out.last, Self.isInlineSpace(last) { out.removeLast() }
                        out.append(space)
                    }
                    out.append(close)
                }
                quoteOpen = opens
            } else if c == "'" {
                if let before, Self.isWord(before), let after, Self.isWord(after) {
                    out.append("’")
                } else if Self.opensAfter(before) {
                    if let after, !Self.isSpace(after), !Self.startsYear(input, at: i + 1) {
                        out.append(innerOpen)
                        innerDepth += 1
                    } else if innerDepth > 0, after.map(Self.isSpace) ?? true {
                        out.append(innerClose)
                        innerDepth -= 1
                    } else {
                        out.append("’")
                    }
                } else if innerDepth > 0 {
                    out.append(innerClose)
                    innerDepth -= 1
                } else {
                    out.append("’")
                }
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(out)
    }

    /// A mark after this opens a quotation: at the start, after a space, a bracket, a dash or a
    /// slash, or after an opening mark.
    private static func opensAfter(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        if isSpace(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .openPunctuation, .dashPunctuation, .initialPunctuation: return true
        default: return scalar == "/" || scalar == "„" || scalar == "‚" || scalar == "«" || scalar == "「" || scalar == "『"
        }
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .nonspacingMark, .spacingMark: return true
        default: return false
        }
    }

    private static func isHebrew(_ scalar: Unicode.Scalar) -> Bool { (0x05D0...0x05EA).contains(scalar.value) }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
    private static func isInlineSpace(_ scalar: Unicode.Scalar) -> Bool { isSpace(scalar) && !isNewline(scalar) }

    /// Two digits and no third: the year an apostrophe stands before ('90s, '68).
    private static func startsYear(_ input: [Unicode.Scalar], at i: Int) -> Bool {
        func digit(_ j: Int) -> Bool { j < input.count && ("0"..."9").contains(input[j]) }
        return digit(i) && digit(i + 1) && !digit(i + 2)
    }
}

extension Unicode.GeneralCategory {
    var isPunctuation: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation: return true
        default: return false
        }
    }
}
