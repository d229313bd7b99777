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
            if let (at, first) = controls.first {
                let code = String(format: "U+%04X", first)
                let more = controls.count > 1 ? " (and \(controls.count - 1) more)" : ""
                issues.append(BookIssue(path: where_, message: "holds the control character \(code) at character \(at + 1)\(more), "
                    + "which prints as nothing or a box; remove it (only line breaks and tabs may be in a text)"))
            }
        }
    }
}
