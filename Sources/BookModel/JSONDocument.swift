import Foundation

/// A parsed JSON text that remembers where every value starts.
///
/// Foundation's decoders say neither where a syntax error is nor where a decoded value came from
/// (on Linux `JSONDecoder` reports only "not valid JSON"), so the loader parses once itself: to point
/// at line and column, to find a JSON path's line for schema errors, to detect the format from the
/// top-level keys, and to see keys the model would silently ignore. Values are then decoded with
/// `JSONDecoder` as usual.
struct JSONDocument: Sendable {
    let root: JSONNode
    /// The UTF-8 text, kept to turn byte offsets into lines and columns.
    let bytes: [UInt8]
    private let positions: TextPositions

    init(data: Data) throws(JSONSyntaxError) {
        bytes = [UInt8](data)
        var parser = JSONParser(bytes: bytes)
        root = try parser.parseDocument()
        positions = TextPositions(bytes)
    }

    /// 1-based line and column (in characters) of a byte offset.
    func position(of offset: Int) -> (line: Int, column: Int) {
        positions.position(of: offset, in: bytes)
    }

    /// The node a decoding path leads to, as deep as the path exists.
    func node(at path: [any CodingKey]) -> (node: JSONNode, depth: Int) {
        var node = root
        for (i, key) in path.enumerated() {
            switch node.value {
            case .object(let members):
                // Foundation's decoder keeps the first of duplicate keys.
                guard let m = members.first(where: { $0.key == key.stringValue }) else { return (node, i) }
                node = m.value
            case .array(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return (node, i) }
                node = items[index]
            default:
                return (node, i)
            }
        }
        return (node, path.count)
    }
}

struct JSONNode: Sendable {
    enum Value: Sendable {
        case object([JSONMember])
        case array([JSONNode])
        /// The text is kept only when short: it serves messages, and inline images run to megabytes.
        case string(String?)
        case number(String)
        case bool(Bool)
        case null
    }

    var value: Value
    /// Byte offset of the value's first character.
    var offset: Int

    var members: [JSONMember]? {
        if case .object(let m) = value { return m }
        return nil
    }

    subscript(key: String) -> JSONNode? {
        members?.first(where: { $0.key == key })?.value
    }

    /// "a string ("pitcure")", "a number (42)", "an object"…, for "found …" in messages.
    var summary: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let s?):
            return "a string (\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\")"
        case .string(nil): return "a long string"
        case .number(let n): return "a number (\(n))"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }
}

struct JSONMember: Sendable {
    var key: String
    var keyOffset: Int
    var value: JSONNode
}

struct JSONSyntaxError: Error, Sendable {
    var offset: Int
    var message: String
}

/// Lines and columns of any offset without scanning the text from its start each time: a book
/// with thousands of findings (every page of a long app file with an unknown field) would
/// otherwise take time in the square of its size. Where each line starts, and how many characters
/// start before every block of the text.
struct TextPositions: Sendable {
    private static let block = 4096
    private let lineStarts: [Int]
    private let charactersBeforeBlock: [Int]

    init(_ bytes: [UInt8]) {
        var lineStarts = [0], before = [Int](), characters = 0
        before.reserveCapacity(bytes.count / Self.block + 1)
        for (i, byte) in bytes.enumerated() {
            if i % Self.block == 0 { before.append(characters) }
            if byte == UInt8(ascii: "\n") { lineStarts.append(i + 1) }
            if byte & 0xC0 != 0x80 { characters += 1 }
        }
        before.append(characters)
        self.lineStarts = lineStarts
        charactersBeforeBlock = before
    }

    func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = max(0, min(offset, bytes.count))
        // The last line start at or before `end`.
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if lineStarts[mid] <= end { low = mid } else { high = mid }
        }
        let lineStart = lineStarts[low]
        var column = 1 + characters(before: end, in: bytes) - characters(before: lineStart, in: bytes)
        // Editors do not show a byte order mark, so it is no column.
        if lineStart == 0, end >= 3, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { column -= 1 }
        return (low + 1, column)
    }

    /// Characters (UTF-8 sequences started) in bytes[0..<offset].
    private func characters(before offset: Int, in bytes: [UInt8]) -> Int {
        let block = offset / Self.block
        var count = charactersBeforeBlock[block]
        for i in (block * Self.block)..<offset where bytes[i] & 0xC0 != 0x80 { count += 1 }
        return count
    }
}

enum TextPosition {
    static func of(_ offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // UTF-8 continuation bytes (10xxxxxx) do not start a character.
        var column = 1
        for i in lineStart..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        // Editors do not show a byte order mark, so it is no column.
        if lineStart == 0, end >= 3, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { column -= 1 }
        return (line, column)
    }
}
