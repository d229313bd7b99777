import Foundation

/// A strict RFC 8259 parser whose errors say what is wrong in words a person editing the file can act on,
/// at the byte where it went wrong.
struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    /// Deeper nesting is no book; the limit keeps a hostile file from exhausting the stack.
    private static let maxDepth = 512
    /// Longer strings are scanned but not kept (see `JSONNode.Value.string`).
    private static let keptStringLength = 256

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        try skipWhitespace()
        guard i < bytes.count else {
            throw JSONSyntaxError(offset: i, message: "the file is empty; expected a JSON object")
        }
        let root = try parseValue(depth: 0)
        try skipWhitespace()
        if i < bytes.count {
            throw JSONSyntaxError(offset: i,
                message: "\(found) after the end of the JSON document; a file holds exactly one object")
        }
        return root
    }

    // MARK: values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maxDepth else {
            throw JSONSyntaxError(offset: i, message: "values are nested more than \(Self.maxDepth) levels deep")
        }
        guard i < bytes.count else {
            throw JSONSyntaxError(offset: i, message: "the file ends where a value was expected")
        }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), offset: start)
        case UInt8(ascii: "'"):
            throw JSONSyntaxError(offset: i, message: "strings need double quotes (\"), not single quotes")
        case UInt8(ascii: "+"):
            throw JSONSyntaxError(offset: i, message: "a JSON number has no leading '+'")
        case UInt8(ascii: "."):
            throw JSONSyntaxError(offset: i, message: "a JSON number needs a digit before the decimal point (0.5, not .5)")
        default:
            let word = self.word(at: i)
            switch word {
            case "true": i += 4; return JSONNode(value: .bool(true), offset: start)
            case "false": i += 5; return JSONNode(value: .bool(false), offset: start)
            case "null": i += 4; return JSONNode(value: .null, offset: start)
            case "True", "TRUE", "False", "FALSE", "Null", "NULL", "None", "nil", "undefined":
                throw JSONSyntaxError(offset: i, message: "'\(word)' is not JSON; write true, false or null in lower case")
            case "NaN", "Infinity":
                throw JSONSyntaxError(offset: i, message: "\(word) is not a JSON number")
            case "":
                throw JSONSyntaxError(offset: i,
                    message: "expected a value (a string in double quotes, a number, an object, an array, true, false or null), found \(found)")
            default:
                throw JSONSyntaxError(offset: i, message: "'\(word)' is not a JSON value; text needs double quotes (\"\(word)\")")
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = i
        i += 1
        var members: [JSONMember] = []
        try skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return JSONNode(value: .object(members), offset: start)
        }
        var comma: Int?
        while true {
            guard i < bytes.count else { throw unclosed("object", "}", from: start) }
            if bytes[i] == UInt8(ascii: "}"), let comma {
                throw JSONSyntaxError(offset: comma, message: "a comma before '}' must be removed: JSON allows no trailing comma")
            }
            guard bytes[i] == UInt8(ascii: "\"") else {
                let word = self.word(at: i)
                if !word.isEmpty {
                    throw JSONSyntaxError(offset: i, message: "a key needs double quotes: write \"\(word)\"")
                }
                if bytes[i] == UInt8(ascii: "'") {
                    throw JSONSyntaxError(offset: i, message: "a key needs double quotes (\"), not single quotes")
                }
                throw JSONSyntaxError(offset: i, message: "expected a key in double quotes, found \(found)")
            }
            let keyOffset = i
            let key = try parseString(keepAll: true) ?? ""
            try skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                if i >= bytes.count { throw unclosed("object", "}", from: start) }
                throw JSONSyntaxError(offset: i, message: "expected ':' after the key \"\(key)\", found \(found)")
            }
            i += 1
            try skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            try skipWhitespace()
            guard i < bytes.count else { throw unclosed("object", "}", from: start) }
            switch bytes[i] {
            case UInt8(ascii: ","):
                comma = i
                i += 1
                try skipWhitespace()
            case UInt8(ascii: "}"):
                i += 1
                return JSONNode(value: .object(members), offset: start)
            case UInt8(ascii: "\""):
                throw JSONSyntaxError(offset: i,
                    message: "expected ',' or '}' after the value of \"\(key)\", found another key; a comma is missing")
            default:
                throw JSONSyntaxError(offset: i, message: "expected ',' or '}' after the value of \"\(key)\", found \(found)")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = i
        i += 1
        var items: [JSONNode] = []
        try skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return JSONNode(value: .array(items), offset: start)
        }
        var comma: Int?
        while true {
            guard i < bytes.count else { throw unclosed("array", "]", from: start) }
            if bytes[i] == UInt8(ascii: "]"), let comma {
                throw JSONSyntaxError(offset: comma, message: "a comma before ']' must be removed: JSON allows no trailing comma")
            }
            if bytes[i] == UInt8(ascii: ","), comma != nil {
                throw JSONSyntaxError(offset: i, message: "two commas in a row: a value is missing between them")
            }
            items.append(try parseValue(depth: depth + 1))
            try skipWhitespace()
            guard i < bytes.count else { throw unclosed("array", "]", from: start) }
            switch bytes[i] {
            case UInt8(ascii: ","):
                comma = i
                i += 1
                try skipWhitespace()
            case UInt8(ascii: "]"):
                i += 1
                return JSONNode(value: .array(items), offset: start)
            case UInt8(ascii: "}"):
                throw JSONSyntaxError(offset: i, message: "'}' closes an array: expected ',' or ']' after item \(items.count - 1)")
            default:
                throw JSONSyntaxError(offset: i,
                    message: "expected ',' or ']' after item \(items.count - 1) of the array, found \(found); a comma may be missing")
            }
        }
    }

    // MARK: strings

    /// Returns the text, or nil for a long string that was only checked.
    private mutating func parseString(keepAll: Bool = false) throws(JSONSyntaxError) -> String? {
        let start = i
        i += 1
        var kept: [UInt8] = []
        var keeping = true
        while true {
            // Inline images are megabytes of plain ASCII: skip such runs without bookkeeping.
            let runStart = i
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
                i += 1
            }
            if keeping {
                kept.append(contentsOf: bytes[runStart..<i])
                if !keepAll, kept.count > Self.keptStringLength { keeping = false; kept = [] }
            }
            guard i < bytes.count else {
                throw JSONSyntaxError(offset: start, message: "this string is never closed: a '\"' is missing at its end")
            }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return keeping ? String(decoding: kept, as: UTF8.self) : nil
            case UInt8(ascii: "\\"):
                let scalar = try parseEscape()
                if keeping { kept.append(contentsOf: Array(String(scalar).utf8)) }
            case ..<0x20:
                let what = b == 0x0A ? "a line break" : b == 0x09 ? "a tab" : String(format: "control character U+%04X", b)
                let write = b == 0x0A ? "\\n" : b == 0x09 ? "\\t" : String(format: "\\u%04X", b)
                throw JSONSyntaxError(offset: i,
                    message: "\(what) inside a string must be written as \(write) (or is the closing '\"' of the string missing?)")
            default:
                let length = try utf8SequenceLength(at: i)
                if keeping { kept.append(contentsOf: bytes[i..<(i + length)]) }
                i += length
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let start = i
        i += 1
        guard i < bytes.count else { throw JSONSyntaxError(offset: start, message: "the file ends inside an escape sequence") }
        let c = bytes[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4(escapeStart: start)
            if (0xDC00...0xDFFF).contains(high) {
                throw JSONSyntaxError(offset: start, message: String(format: "\\u%04X is the second half of a surrogate pair without a first", high))
            }
            if (0xD800...0xDBFF).contains(high) {
                let second = i
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(offset: start, message: String(format: "\\u%04X starts a surrogate pair, but no \\uDC00–\\uDFFF follows", high))
                }
                i += 2
                let low = try hex4(escapeStart: second)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError(offset: second, message: String(format: "\\u%04X cannot end the surrogate pair started by \\u%04X", low, high))
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            return Unicode.Scalar(high)!
        default:
            let shown = c < 0x80 ? "\\" + String(UnicodeScalar(c)) : "a backslash"
            throw JSONSyntaxError(offset: start,
                message: "\(shown) is not a JSON escape; write \\\\ for a backslash (valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    private mutating func hex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count, let d = Self.hexValue(bytes[i]) else {
                throw JSONSyntaxError(offset: escapeStart, message: "\\u must be followed by four hex digits")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func utf8SequenceLength(at start: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[start]
        let (length, minimum): (Int, UInt32) = switch lead {
        case 0xC2...0xDF: (2, 0x80)
        case 0xE0...0xEF: (3, 0x800)
        case 0xF0...0xF4: (4, 0x10000)
        default: (0, 0)
        }
        let bad = JSONSyntaxError(offset: start, message: "the file is not valid UTF-8 here; save it as UTF-8")
        guard length > 0, start + length <= bytes.count else { throw bad }
        var scalar = UInt32(lead) & (0xFF >> (length + 1))
        for k in 1..<length {
            let b = bytes[start + k]
            guard b & 0xC0 == 0x80 else { throw bad }
            scalar = scalar << 6 | UInt32(b & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { throw bad }
        return length
    }

    // MARK: numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else {
            if i < bytes.count, word(at: i) == "Infinity" {
                throw JSONSyntaxError(offset: start, message: "-Infinity is not a JSON number")
            }
            throw JSONSyntaxError(offset: start, message: "a '-' must be followed by digits")
        }
        if bytes[i] == UInt8(ascii: "0"), i + 1 < bytes.count, isDigit(bytes[i + 1]) {
            throw JSONSyntaxError(offset: start, message: "a JSON number cannot start with 0 followed by digits (write 7, not 07)")
        }
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw JSONSyntaxError(offset: start, message: "a digit must follow the decimal point (1.0, not 1.)")
            }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw JSONSyntaxError(offset: start, message: "an exponent needs digits (1e3)")
            }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    // MARK: whitespace and helpers

    private mutating func skipWhitespace() throws(JSONSyntaxError) {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            case UInt8(ascii: "/") where i + 1 < bytes.count && (bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*")):
                throw JSONSyntaxError(offset: i, message: "JSON allows no comments")
            default: return
            }
        }
    }

    /// The run of letters, digits and underscores at `offset` (empty when it is none).
    private func word(at offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - offset < 40 {
            let b = bytes[end]
            let isWordByte = (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || isDigit(b) || b == UInt8(ascii: "_")
            guard isWordByte else { break }
            end += 1
        }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// What is at the current position, for "found …".
    private var found: String {
        guard i < bytes.count else { return "the end of the file" }
        let b = bytes[i]
        if b == UInt8(ascii: "\"") { return "a string" }
        if b >= 0x21 && b < 0x7F { return "'\(UnicodeScalar(b))'" }
        if b >= 0x80 { return "a non-ASCII character" }
        return String(format: "byte 0x%02X", b)
    }

    private func unclosed(_ what: String, _ closer: String, from start: Int) -> JSONSyntaxError {
        let (line, column) = TextPosition.of(start, in: bytes)
        return JSONSyntaxError(offset: bytes.count,
            message: "the file ends inside the \(what) opened at line \(line), column \(column); a '\(closer)' is missing")
    }
}
