extension QuoteMarks {
    /// `text` with its typewriter quotes curled: `"` pairs into `open`/`close`, `'` pairs into the
    /// inner marks, and a `'` inside a word or before a year's two digits ("don't", "'90s") into an
    /// apostrophe. Whether a mark opens or closes is read from its neighbours, and from whether a
    /// quotation is open in the paragraph (a blank line ends a paragraph), so that a French
    /// quotation typed with spaces inside its marks closes too, and a quotation in a language
    /// written without spaces pairs its marks. Other characters are kept as they are.
    public func curled(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x22 || $0 == 0x27 }) else { return text }
        var text = text
        return text.withUTF8 { String(decoding: curled(utf8: $0), as: UTF8.self) }
    }

    /// Over the UTF-8 bytes: the runs between quotes and line feeds are copied whole, and only the
    /// scalars next to a quote are decoded to be judged.
    private func curled(utf8 input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count + input.count / 8)
        var quoteOpen = false, innerDepth = 0
        var i = 0, copied = 0
        func put(_ scalar: Unicode.Scalar) { out.append(contentsOf: UTF8.encode(scalar)!) }
        while i < input.count {
            let byte = input[i]
            guard byte == 0x22 || byte == 0x27 || byte == 0x0A else { i += 1; continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: input[copied..<i]))
            let before = Self.lastScalar(out)?.scalar, after = Self.scalar(input, at: i + 1)?.scalar
            if byte == 0x0A {
                if after == "\n" || after == "\u{2029}" { quoteOpen = false; innerDepth = 0 }
                out.append(byte)
            } else if let before, Self.isHebrew(before), byte == 0x27 || after.map(Self.isWord) == true {
                // Hebrew's geresh and gershayim, typed as quotes after a letter (ר' and צה"ל), mark
                // abbreviations: they are not quotation marks.
                out.append(byte)
            } else if byte == 0x22 {
                let endsHere = after.map { Self.isSpace($0) || $0.properties.generalCategory.isPunctuation } ?? true
                // After a space or an opening mark it opens, unless it closes a quotation before a
                // space or a stop; after a word it closes before a space or a stop. Between two
                // words ("祖母は"昔はね"", "sagte:"Ja"") nothing beside it tells: it opens a
                // quotation when none is open, and closes the one that is.
                let opens = Self.opensAfter(before) ? !(quoteOpen && endsHere) : (!endsHere && !quoteOpen)
                if opens {
                    put(open)
                    if let space, let after, !Self.isNewline(after) {
                        while let next = Self.scalar(input, at: i + 1), Self.isInlineSpace(next.scalar) { i += next.length }
                        put(space)
                    }
                } else {
                    if let space, let last = Self.lastScalar(out), !Self.isNewline(last.scalar) {
                        while let last = Self.lastScalar(out), Self.isInlineSpace(last.scalar) { out.removeLast(last.length) }
                        put(space)
                    }
                    put(close)
                }
                quoteOpen = opens
            } else if let before, Self.isWord(before), let after, Self.isWord(after) {
                put("’")
            } else if Self.opensAfter(before) {
                if let after, !Self.isSpace(after), !Self.startsYear(input, at: i + 1) {
                    put(innerOpen)
                    innerDepth += 1
                } else if innerDepth > 0, after.map(Self.isSpace) ?? true {
                    put(innerClose)
                    innerDepth -= 1
                } else {
                    put("’")
                }
            } else if innerDepth > 0 {
                put(innerClose)
                innerDepth -= 1
            } else {
                put("’")
            }
            i += 1
            copied = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: input[copied..<input.count]))
        return out
    }

    /// The scalar whose UTF-8 starts at byte `i` (valid UTF-8, as a String's), and its length.
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard i < bytes.count else { return nil }
        let lead = bytes[i]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard i + length <= bytes.count else { return nil }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        for k in 1..<max(1, length) { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return Unicode.Scalar(value).map { ($0, length) }
    }

    /// The last scalar of UTF-8 `bytes`, and its length.
    private static func lastScalar(_ bytes: [UInt8]) -> (scalar: Unicode.Scalar, length: Int)? {
        var start = bytes.count - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0 else { return nil }
        return bytes.withUnsafeBufferPointer { scalar($0, at: start) }
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

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }
    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
    private static func isInlineSpace(_ scalar: Unicode.Scalar) -> Bool { isSpace(scalar) && !isNewline(scalar) }

    /// Two digits and no third: the year an apostrophe stands before ('90s, '68).
    private static func startsYear(_ input: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        func digit(_ j: Int) -> Bool { j < input.count && (0x30...0x39).contains(input[j]) }
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
