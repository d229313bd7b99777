import Foundation

/// A value of PDF syntax as a content stream or a CMap writes it.
public indirect enum PDFValue: Equatable, Sendable {
    case number(Double)
    case string([UInt8])
    case name(String)
    case array([PDFValue])
    case dictionary([String: PDFValue])
    case bool(Bool)
    case null

    public var number: Double? { if case .number(let v) = self { v } else { nil } }
    public var bytes: [UInt8]? { if case .string(let b) = self { b } else { nil } }
    public var nameValue: String? { if case .name(let n) = self { n } else { nil } }
    public var items: [PDFValue]? { if case .array(let a) = self { a } else { nil } }
    public var entries: [String: PDFValue]? { if case .dictionary(let d) = self { d } else { nil } }

    /// A text string's bytes as text: UTF-16BE after its byte-order mark, else PDFDocEncoding
    /// (read as Latin-1, which it matches in the printable ASCII a test meets).
    public static func text(_ bytes: [UInt8]) -> String {
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}

/// Reads a content stream (or a CMap, the same syntax) as its operators, each with the operands
/// before it (PDF 32000-1 §7.2, §7.8.2). An inline image's data is skipped, its `EI` kept.
public struct ContentSyntax {
    public struct Operation: Sendable {
        public var op: String
        public var operands: [PDFValue]
    }

    public static func operations(_ bytes: [UInt8]) -> [Operation] {
        var reader = ContentSyntax(bytes: bytes)
        var out: [Operation] = []
        var operands: [PDFValue] = []
        while let token = reader.next() {
            switch token {
            case .value(let v): operands.append(v)
            case .keyword(let k):
                if k == "ID" { reader.skipInlineImage() }
                out.append(Operation(op: k, operands: operands))
                operands = []
            case .arrayStart: operands.append(.array(reader.collection(until: .arrayEnd)))
            case .dictionaryStart: operands.append(reader.dictionary())
            case .arrayEnd, .dictionaryEnd: break
            }
        }
        return out
    }

    private enum Token: Equatable {
        case value(PDFValue)
        case keyword(String)
        case arrayStart, arrayEnd, dictionaryStart, dictionaryEnd
    }

    private let bytes: [UInt8]
    private var i = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0 || c == 9 || c == 10 || c == 12 || c == 13 || c == 32 }
    private static let delimiters: [Bool] = (0..<256).map { "()<>[]{}/%".utf8.contains(UInt8($0)) }
    private static func isDelimiter(_ c: UInt8) -> Bool { delimiters[Int(c)] }

    private mutating func collection(until end: Token) -> [PDFValue] {
        var values: [PDFValue] = []
        while let token = next(), token != end {
            switch token {
            case .value(let v): values.append(v)
            case .keyword(let k): values.append(.name(k))
            case .arrayStart: values.append(.array(collection(until: .arrayEnd)))
            case .dictionaryStart: values.append(dictionary())
            case .arrayEnd, .dictionaryEnd: return values
            }
        }
        return values
    }

    private mutating func dictionary() -> PDFValue {
        let values = collection(until: .dictionaryEnd)
        var entries: [String: PDFValue] = [:]
        for k in stride(from: 0, to: values.count - 1, by: 2) {
            if let key = values[k].nameValue { entries[key] = values[k + 1] }
        }
        return .dictionary(entries)
    }

    /// Past an inline image's data to just before its `EI`, which must stand alone.
    private mutating func skipInlineImage() {
        if i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "E"), bytes[i + 1] == UInt8(ascii: "I"), i > 0, Self.isSpace(bytes[i - 1]),
               i + 2 >= bytes.count || Self.isSpace(bytes[i + 2]) || Self.isDelimiter(bytes[i + 2]) {
                return
            }
            i += 1
        }
        i = bytes.count
    }

    private mutating func next() -> Token? {
        while i < bytes.count {
            let c = bytes[i]
            if Self.isSpace(c) { i += 1; continue }
            if c == UInt8(ascii: "%") {
                while i < bytes.count, bytes[i] != 10, bytes[i] != 13 { i += 1 }
                continue
            }
            switch c {
            case UInt8(ascii: "("): return .value(.string(literalString()))
            case UInt8(ascii: "["): i += 1; return .arrayStart
            case UInt8(ascii: "]"): i += 1; return .arrayEnd
            case UInt8(ascii: "{"), UInt8(ascii: "}"): i += 1; continue
            case UInt8(ascii: "<"):
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<") { i += 2; return .dictionaryStart }
                return .value(.string(hexString()))
            case UInt8(ascii: ">"):
                i += bytes.count > i + 1 && bytes[i + 1] == UInt8(ascii: ">") ? 2 : 1
                return .dictionaryEnd
            case UInt8(ascii: "/"):
                i += 1
                return .value(.name("/" + regular(decodingHex: true)))
            default:
                let word = regular(decodingHex: false)
                if word.isEmpty { i += 1; continue }
                if let v = Double(word) { return .value(.number(v)) }
                switch word {
                case "true": return .value(.bool(true))
                case "false": return .value(.bool(false))
                case "null": return .value(.null)
                default: return .keyword(word)
                }
            }
        }
        return nil
    }

    /// A run of regular characters; in a name, `#xx` is the byte xx.
    private mutating func regular(decodingHex: Bool) -> String {
        var out: [UInt8] = []
        while i < bytes.count, !Self.isSpace(bytes[i]), !Self.isDelimiter(bytes[i]) {
            if decodingHex, bytes[i] == UInt8(ascii: "#"), i + 2 < bytes.count,
               let v = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                out.append(v)
                i += 3
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hexString() -> [UInt8] {
        i += 1
        var digits: [UInt8] = []
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            if !Self.isSpace(bytes[i]) { digits.append(bytes[i]) }
            i += 1
        }
        i += 1
        if digits.count % 2 == 1 { digits.append(UInt8(ascii: "0")) }
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...($0 + 1)], as: UTF8.self), radix: 16)
        }
    }

    private mutating func literalString() -> [UInt8] {
        i += 1
        var out: [UInt8] = []
        var depth = 0
        while i < bytes.count {
            let c = bytes[i]
            i += 1
            switch c {
            case UInt8(ascii: "("): depth += 1; out.append(c)
            case UInt8(ascii: ")"):
                if depth == 0 { return out }
                depth -= 1
                out.append(c)
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { return out }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case 10: break
                case 13: if i < bytes.count, bytes[i] == 10 { i += 1 }
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var v = Int(e - 48), n = 1
                    while n < 3, i < bytes.count, (48...55).contains(bytes[i]) { v = v * 8 + Int(bytes[i] - 48); i += 1; n += 1 }
                    out.append(UInt8(v & 0xFF))
                default: out.append(e)
                }
            default: out.append(c)
            }
        }
        return out
    }
}
