import Foundation
import CShim

/// What a JSON request body holds at its top, found by reading it once without keeping it.
struct JSONBodyShape {
    enum Kind: String {
        case object, array, string, number, boolean = "true or false", null

        var described: String {
            switch self {
            case .object, .array: "an \(rawValue)"
            case .string, .number: "a \(rawValue)"
            case .boolean: "true or false"
            case .null: "null"
            }
        }
    }

    struct Member {
        var key: String
        var kind: Kind
        /// Where its value starts and ends in the body (bytes).
        var start: Int
        var end: Int
        var strings: StringTally
        /// The keys of its own members, when it is an object (the first few hundred).
        var keys: [String] = []
    }

    var kind: Kind
    /// Where the value starts (after a byte order mark and white space).
    var start: Int
    var members: [Member]

    func member(_ key: String) -> Member? { members.first { $0.key == key } }
}

/// The string values of one part of a body, tallied as a book's texts are limited.
struct StringTally {
    /// Characters (Unicode scalars) of the values that are not data: URIs.
    var textCharacters = 0
    var longestText = 0
    var longestTextPath = "$"
    /// The longest value that is not a data: URI and holds more than base64's letters: an app's
    /// own file carries its pictures as bare base64, which is no text.
    var longestNonBase64 = 0
    var longestNonBase64Path = "$"
    var dataURIs = 0

    mutating func add(_ other: StringTally) {
        textCharacters += other.textCharacters
        dataURIs += other.dataURIs
        if other.longestText > longestText { longestText = other.longestText; longestTextPath = other.longestTextPath }
        if other.longestNonBase64 > longestNonBase64 {
            longestNonBase64 = other.longestNonBase64; longestNonBase64Path = other.longestNonBase64Path
        }
    }
}

/// Reads a JSON body from its file a block at a time: it checks the syntax and tallies the strings
/// (`survey`), or copies one value of it byte for byte with each data: URI string replaced by the
/// picture file it is written to (`rewrite`). Nothing of the body is kept whole in memory, so a
/// body's size costs disk, not memory, and no nesting depth costs stack.
final class JSONBodyScanner {
    struct SyntaxError: Error {
        var offset: Int
        var message: String
    }

    /// Deeper nesting is no book (the book reader stops at the same depth).
    static let maxDepth = 512
    /// Keys are kept to this many bytes, for the members' names and the JSON paths in messages.
    private static let keptKeyBytes = 256

    private let reader: BlockReader
    private let pictures: InlinePictures?
    private var parts: [PathPart] = []
    private var frames: [Bool] = []  // true: an object
    private var tally = StringTally()

    private enum PathPart {
        case key(String)
        case index(Int)
    }

    private init(reader: BlockReader, pictures: InlinePictures?) {
        self.reader = reader; self.pictures = pictures
    }

    /// Checks the body is one JSON value and notes its top members with their strings' tallies.
    static func survey(_ file: URL) throws(APIError) -> JSONBodyShape {
        let scanner = JSONBodyScanner(reader: try BlockReader(path: file.path), pictures: nil)
        do {
            return try scanner.document()
        } catch {
            throw scanner.explain(error, in: file)
        }
    }

    /// Copies the value that starts at byte `start` of `file` to `output`, each string value that
    /// is a data: URI replaced by the name of the file `pictures` writes it to (when given).
    static func rewrite(_ file: URL, value start: Int, into output: URL, pictures: InlinePictures?) throws(APIError) {
        let reader = try BlockReader(path: file.path, from: start)
        let writer = try BlockWriter(output)
        reader.copy = writer
        reader.copying = true
        let scanner = JSONBodyScanner(reader: reader, pictures: pictures)
        do {
            _ = try scanner.value()
        } catch {
            throw scanner.explain(error, in: file)
        }
        try writer.finish()
    }

    private func explain(_ error: any Error, in file: URL) -> APIError {
        if let e = error as? APIError { return e }
        guard let e = error as? SyntaxError else { return APIError(400, "invalidJSON", "the body is not valid JSON") }
        if reader.failed { return APIError(500, "storage", "cannot read the request back from the job's folder") }
        let (line, column) = Self.position(of: e.offset, in: file)
        return APIError(400, "invalidJSON", "the body is not valid JSON: \(e.message) (line \(line), column \(column))")
    }

    /// Line and column (in bytes, from 1) of a byte of the file, counted only when a message needs them.
    static func position(of offset: Int, in file: URL) -> (Int, Int) {
        guard let reader = try? BlockReader(path: file.path) else { return (1, offset + 1) }
        var line = 1, column = 1
        while reader.offset < offset, let b = reader.next() {
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    // MARK: the grammar (RFC 8259)

    private func document() throws -> JSONBodyShape {
        if reader.peek() == 0xEF {
            guard reader.next() == 0xEF, reader.next() == 0xBB, reader.next() == 0xBF else { throw fail("the body is not UTF-8 text") }
        }
        skipSpace()
        guard reader.peek() != nil else { throw fail("the body is empty") }
        let shape = try value()
        skipSpace()
        if reader.peek() != nil { throw fail("more follows the end of the JSON value; a body holds one value") }
        return shape
    }

    /// One value from the current byte, iteratively: a container's members are walked with a
    /// stack of frames, not by recursion.
    private func value() throws -> JSONBodyShape {
        var rootKind: JSONBodyShape.Kind?
        var rootStart: Int?
        var members: [JSONBodyShape.Member] = []
        var open: JSONBodyShape.Member?  // the root member whose value is a container being read
        var memberKey = ""
        expectValue: while true {
            skipSpace()
            let start = reader.offset
            rootStart = rootStart ?? start
            let isMember = frames.count == 1 && frames[0]
            if isMember { tally = StringTally() }
            guard let b = reader.peek() else { throw fail("the body ends where a value was expected") }
            var kind: JSONBodyShape.Kind
            switch b {
            case UInt8(ascii: "{"):
                _ = reader.next()
                kind = .object
                skipSpace()
                if reader.peek() == UInt8(ascii: "}") {
                    _ = reader.next()
                } else {
                    try push(object: true)
                    let key = try key()
                    if frames.count == 1 { memberKey = key }
                    if isMember { open = .init(key: memberKey, kind: kind, start: start, end: 0, strings: .init(), keys: [key]) }
                    rootKind = rootKind ?? kind
                    continue expectValue
                }
            case UInt8(ascii: "["):
                _ = reader.next()
                kind = .array
                skipSpace()
                if reader.peek() == UInt8(ascii: "]") {
                    _ = reader.next()
                } else {
                    try push(object: false)
                    parts.append(.index(0))
                    if isMember { open = .init(key: memberKey, kind: kind, start: start, end: 0, strings: .init()) }
                    rootKind = rootKind ?? kind
                    continue expectValue
                }
            case UInt8(ascii: "\""):
                kind = .string
                try stringValue()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                kind = .number
                try number()
            default:
                kind = try literal()
            }
            rootKind = rootKind ?? kind
            if isMember { members.append(.init(key: memberKey, kind: kind, start: start, end: reader.offset, strings: tally)) }
            // The value is complete: close the containers it completes.
            while true {
                guard let isObject = frames.last else { return JSONBodyShape(kind: rootKind ?? kind, start: rootStart ?? start, members: members) }
                skipSpace()
                guard let c = reader.next() else { throw fail("the body ends inside an \(isObject ? "object" : "array")") }
                if c == UInt8(ascii: ",") {
                    let last = parts.removeLast()
                    if isObject {
                        skipSpace()
                        let key = try key()
                        if frames.count == 1 { memberKey = key }
                        if frames.count == 2, frames[0], open != nil, open!.keys.count < 512 { open!.keys.append(key) }
                    } else if case .index(let n) = last {
                        parts.append(.index(n + 1))
                    }
                    continue expectValue
                }
                guard c == UInt8(ascii: isObject ? "}" : "]") else {
                    throw fail(isObject ? "expected , or } after an object's member" : "expected , or ] after an array's element", back: 1)
                }
                frames.removeLast()
                parts.removeLast()
                if frames.count == 1, frames[0], var member = open {
                    member.end = reader.offset
                    member.strings = tally
                    members.append(member)
                    open = nil
                }
            }
        }
    }

    private func push(object: Bool) throws {
        guard frames.count < Self.maxDepth else { throw fail("values are nested more than \(Self.maxDepth) levels deep") }
        frames.append(object)
    }

    /// A member's key and its colon; the key becomes the path's last part.
    private func key() throws -> String {
        guard reader.peek() == UInt8(ascii: "\"") else {
            throw fail(reader.peek() == UInt8(ascii: "}") ? "a comma before } (no trailing commas in JSON)" : "expected a member's name in double quotes")
        }
        _ = reader.next()
        var kept: [UInt8] = []
        try scanString(raw: { _ in }, content: { piece in
            if kept.count < Self.keptKeyBytes { kept.append(contentsOf: piece.prefix(Self.keptKeyBytes - kept.count)) }
        })
        let key = String(decoding: kept, as: UTF8.self)
        parts.append(.key(key))
        skipSpace()
        guard reader.next() == UInt8(ascii: ":") else { throw fail("expected : after the name \"\(key)\"", back: 1) }
        return key
    }

    private static let dataPrefix = Array("data:".utf8)

    /// A string value: tallied, and when rewriting, copied, or written out as a picture when it is
    /// a data: URI.
    private func stringValue() throws {
        let rewriting = pictures != nil && reader.copying
        reader.copying = false
        defer { if rewriting { reader.copying = true } }
        let out = rewriting ? reader.copy : nil
        _ = reader.next()
        var pending: [UInt8] = [UInt8(ascii: "\"")]
        var prefix: [UInt8] = []
        var decided = false, isDataURI = false
        var characters = 0, base64 = true
        func decide(_ dataURI: Bool) throws {
            decided = true
            isDataURI = dataURI
            if dataURI {
                if rewriting { try pictures!.begin(); try prefix.withUnsafeBufferPointer { try pictures!.feed($0) } }
            } else {
                out?.append(pending)
                prefix.withUnsafeBufferPointer { tallyText($0) }
            }
            pending = []
        }
        func tallyText(_ piece: UnsafeBufferPointer<UInt8>) {
            guard let base = piece.baseAddress else { return }
            var plain: Int32 = base64 ? 1 : 0
            characters += shim_utf8_scalars(base, piece.count, &plain)
            base64 = plain != 0
        }
        try scanString(raw: { piece in
            if decided {
                if !isDataURI { out?.append(piece) }
            } else {
                pending.append(contentsOf: piece)
            }
        }, content: { piece in
            var rest = piece
            while !decided, let b = rest.first {
                prefix.append(b)
                rest = UnsafeBufferPointer(rebasing: rest.dropFirst())
                if prefix.count == Self.dataPrefix.count || prefix.last != Self.dataPrefix[prefix.count - 1] {
                    try decide(prefix == Self.dataPrefix)
                }
            }
            guard decided, !rest.isEmpty else { return }
            if isDataURI {
                if rewriting { try pictures!.feed(rest) }
            } else {
                tallyText(rest)
            }
        })
        if !decided { try decide(false) }
        if isDataURI {
            tally.dataURIs += 1
            if rewriting {
                let name = try pictures!.finish()
                out?.append(UInt8(ascii: "\""))
                out?.append(Array(name.utf8))
                out?.append(UInt8(ascii: "\""))
            }
            return
        }
        tally.textCharacters += characters
        if characters > tally.longestText {
            tally.longestText = characters
            tally.longestTextPath = path()
        }
        if !base64, characters > tally.longestNonBase64 {
            tally.longestNonBase64 = characters
            tally.longestNonBase64Path = path()
        }
    }

    /// The rest of a string after its opening quote: `raw` gets its bytes as written (the closing
    /// quote included), `content` its text's bytes, escapes resolved, as UTF-8, a stretch at a time.
    private func scanString(raw: (UnsafeBufferPointer<UInt8>) throws -> Void, content: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        while true {
            let piece = reader.plainRun()
            if piece.count > 0 {
                try raw(piece)
                try content(piece)
                continue
            }
            guard let b = reader.next() else { throw fail("the body ends inside a string") }
            switch b {
            case UInt8(ascii: "\""):
                try [b].withUnsafeBufferPointer { try raw($0) }
                return
            case UInt8(ascii: "\\"):
                var escape: [UInt8] = [b]
                guard let e = reader.next() else { throw fail("the body ends inside a string") }
                escape.append(e)
                var scalar: UInt32
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(e)
                case UInt8(ascii: "b"): scalar = 0x08
                case UInt8(ascii: "f"): scalar = 0x0C
                case UInt8(ascii: "n"): scalar = 0x0A
                case UInt8(ascii: "r"): scalar = 0x0D
                case UInt8(ascii: "t"): scalar = 0x09
                case UInt8(ascii: "u"):
                    scalar = try hex4(&escape)
                    if (0xD800...0xDBFF).contains(scalar), reader.peek() == UInt8(ascii: "\\") {
                        _ = reader.next()
                        escape.append(UInt8(ascii: "\\"))
                        guard reader.next() == UInt8(ascii: "u") else { throw fail("a \\u escape of a surrogate pair is cut short", back: 1) }
                        escape.append(UInt8(ascii: "u"))
                        let low = try hex4(&escape)
                        scalar = (0xDC00...0xDFFF).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    } else if (0xD800...0xDFFF).contains(scalar) {
                        scalar = 0xFFFD
                    }
                default:
                    throw fail("\\\(Character(Unicode.Scalar(e))) is not an escape of JSON (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", back: 2)
                }
                try escape.withUnsafeBufferPointer { try raw($0) }
                try Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8).withUnsafeBufferPointer { try content($0) }
            default:
                throw fail(String(format: "a control character (U+%04X) inside a string; write it escaped (\\n, \\t, \\u00XX)", b), back: 1)
            }
        }
    }

    private func hex4(_ escape: inout [UInt8]) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let h = reader.next(), let digit = Character(Unicode.Scalar(h)).hexDigitValue else {
                throw fail("\\u needs four hexadecimal digits", back: 1)
            }
            escape.append(h)
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func number() throws {
        func digits() -> Int {
            var n = 0
            while let d = reader.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) { _ = reader.next(); n += 1 }
            return n
        }
        if reader.peek() == UInt8(ascii: "-") { _ = reader.next() }
        if reader.peek() == UInt8(ascii: "0") {
            _ = reader.next()
            if let d = reader.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) { throw fail("a number has no leading zeros") }
        } else if digits() == 0 {
            throw fail("a number needs a digit here")
        }
        if reader.peek() == UInt8(ascii: ".") {
            _ = reader.next()
            guard digits() > 0 else { throw fail("a number needs a digit after its decimal point") }
        }
        if reader.peek() == UInt8(ascii: "e") || reader.peek() == UInt8(ascii: "E") {
            _ = reader.next()
            if reader.peek() == UInt8(ascii: "+") || reader.peek() == UInt8(ascii: "-") { _ = reader.next() }
            guard digits() > 0 else { throw fail("a number needs a digit in its exponent") }
        }
    }

    private func literal() throws -> JSONBodyShape.Kind {
        let start = reader.offset
        var word: [UInt8] = []
        while let b = reader.peek(), word.count < 16,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b) {
            word.append(b)
            _ = reader.next()
        }
        switch String(decoding: word, as: UTF8.self) {
        case "true", "false": return .boolean
        case "null": return .null
        case "": throw SyntaxError(offset: start, message: "\(Self.describe(reader.peek())) where a value was expected")
        case let w: throw SyntaxError(offset: start, message: "'\(w)' is not a JSON value (true, false and null are written in lower case; strings need double quotes)")
        }
    }

    private static func describe(_ b: UInt8?) -> String {
        guard let b else { return "the end" }
        if b >= 0x21, b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return String(format: "the byte 0x%02X", b)
    }

    private func skipSpace() {
        while let b = reader.peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { _ = reader.next() }
    }

    private func fail(_ message: String, back: Int = 0) -> SyntaxError {
        SyntaxError(offset: max(0, reader.offset - back), message: message)
    }

    /// The JSON path of the value being read, as the book's messages write it (`$.pages[2].text`).
    private func path() -> String {
        var out = "$"
        for part in parts {
            switch part {
            case .index(let i): out += "[\(i)]"
            case .key(let k):
                let plain = !k.isEmpty && k.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                out += plain ? ".\(k)" : "[\"\(k)\"]"
            }
        }
        return out
    }
}
