import Foundation

/// What every text of a book must be before it is set: free of control characters other than
/// line breaks and tabs (they print as boxes or nothing, and are almost always pasted in by
/// accident), and within `InputLimits`' lengths. Every string of the book is checked where it is
/// in book.json (`$.pages[3].text`), unknown fields and overrides included; inline picture data is
/// the image checks' business.
public enum TextCheck {
    public static func issues(_ book: Book, limits: InputLimits) -> [BookIssue] {
        guard let data = try? JSONEncoder().encode(book),
              let tree = try? JSONDecoder().decode(JSONValue.self, from: data) else { return [] }
        var walk = Walk(limits: limits)
        walk.visit(tree, [])
        if walk.total > limits.maxBookTextLength {
            walk.issues.append(BookIssue(path: "$", message: "the book holds \(InputLimits.grouped(walk.total)) characters of text, "
                + "more than the limit of \(InputLimits.grouped(limits.maxBookTextLength)); split it into several books, "
                + "or raise the limit with --max-book-text-length"))
        }
        return walk.issues
    }

    /// The longest run of characters between places a line may break, and where it starts
    /// (0-based, in characters). Places are whitespace, and every character of the scripts that
    /// break between letters without spaces (Chinese, Japanese, Korean; Thai, Lao, Khmer and
    /// Myanmar, which Pango breaks by dictionary) and of emoji; a hyphen or slash is not counted
    /// as one, so the measure errs towards a longer run, never a shorter.
    public static func longestUnbreakableRun(_ s: String) -> (length: Int, start: Int) {
        var best = (length: 0, start: 0)
        var run = 0, start = 0, index = 0
        for scalar in s.unicodeScalars {
            if breaksAround(scalar) {
                run = 0
            } else {
                if run == 0 { start = index }
                run += 1
                if run > best.length { best = (run, start) }
            }
            index += 1
        }
        return best
    }

    private static func breaksAround(_ s: Unicode.Scalar) -> Bool {
        // Most of a book is ASCII, whose white space is tab to carriage return and the space.
        if s.isASCII { return s == " " || (0x09...0x0D).contains(s.value) }
        if s.properties.isWhitespace { return true }
        switch s.value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF,   // Thai, Lao, Myanmar, Khmer
             0x2E80...0xA4CF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF,   // CJK, kana, Hangul, full-width
             0x1F000...0x1FAFF, 0x20000...0x3FFFF:   // emoji, CJK extensions
            return true
        default:
            return false
        }
    }

    /// C0 controls but tab, line feed and carriage return (the typesetter reads CR and CRLF as
    /// line breaks), DEL and the C1 controls.
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    private struct Walk {
        let limits: InputLimits
        var issues: [BookIssue] = []
        var total = 0

        mutating func visit(_ value: JSONValue, _ path: [PathComponent]) {
            switch value {
            case .string(let s): check(s, path)
            case .array(let items):
                for (i, item) in items.enumerated() { visit(item, path + [.index(i)]) }
            case .object(let members):
                for key in members.keys.sorted() where key != "base64" {
                    visit(members[key]!, path + [.key(key)])
                }
            default: break
            }
        }

        mutating func check(_ s: String, _ path: [PathComponent]) {
            var s = s
            // Over the UTF-8 bytes: a scalar starts at each byte that is not a continuation byte, a
            // C0 control or DEL is one byte, a C1 control is C2 80…C2 9F.
            let (count, controls) = s.withUTF8 { bytes -> (Int, [(Int, UInt32)]) in
                var count = 0
                var controls: [(Int, UInt32)] = []
                var previous: UInt8 = 0
                for byte in bytes {
                    if byte & 0xC0 != 0x80 {
                        if byte < 0x20 || byte == 0x7F, byte != 0x09, byte != 0x0A, byte != 0x0D {
                            controls.append((count, UInt32(byte)))
                        }
                        count += 1
                    } else if previous == 0xC2, byte <= 0x9F {
                        controls.append((count - 1, UInt32(byte)))
                    }
                    previous = byte
                }
                return (count, controls)
            }
            total += count
            let where_ = JSONPath.render(path)
            if count > limits.maxTextLength {
                issues.append(BookIssue(path: where_, message: "this text is \(InputLimits.grouped(count)) characters, more than "
                    + "the limit of \(InputLimits.grouped(limits.maxTextLength)) for one text; split it over several pages, "
                    + "or raise the limit with --max-text-length"))
            }
            if count > limits.maxWordLength, path.last != .key("url") {
                let (run, at) = TextCheck.longestUnbreakableRun(s)
                if run > limits.maxWordLength {
                    issues.append(BookIssue(path: where_, message: "holds \(InputLimits.grouped(run)) characters in a row from character "
                        + "\(at + 1) with no space or other place to break a line, more than the limit of "
                        + "\(InputLimits.grouped(limits.maxWordLength)); no line can hold them: add spaces, or raise the limit with --max-word-length"))
                }
            }
            if let (at, first) = controls.first {
                let code = String(format: "U+%04X", first)
                let more = controls.count > 1 ? " (and \(controls.count - 1) more)" : ""
                issues.append(BookIssue(path: where_, message: "holds the control character \(code) at character \(at + 1)\(more), "
                    + "which prints as nothing or a box; remove it (only line breaks and tabs may be in a text)"))
            }
        }
    }
}
