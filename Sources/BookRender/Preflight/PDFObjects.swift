import Foundation
import CQPDF

/// What the PDF preflight reads from a file's objects with qpdf rather than from a rendering:
/// which boxes each page really has (poppler's `pdfinfo -box` prints a TrimBox for every page,
/// the MediaBox when there is none), what on each page is transparent, what on it is in RGB (or
/// Lab), and the document's PDF/X keys.
struct PDFObjects {
    struct Page {
        var hasTrimBox = false
        var hasArtBox = false
        /// The first transparent thing on the page, named ("graphics state /GS1 (object 12) sets /ca 0.5").
        var transparency: String?
        /// The first thing on the page in a colour space other than CMYK and grey.
        var colour: String?
    }

    var pages: [Page] = []
    var info: [String: String] = [:]
    /// The `/S` of each output intent in the catalog, with whether it carries a profile or a condition.
    var outputIntents: [(subtype: String, described: Bool)] = []
    /// What qpdf had to mend to read the file (a broken cross-reference table, a bad length).
    var repairs: [String] = []
    /// `/ViewerPreferences /Direction /R2L`: a book bound on the right, whose odd pages are left-hand pages.
    var readsRightToLeft = false

    /// `colour`: look for RGB content too (a printer that takes only CMYK and grey).
    static func read(_ pdf: URL, colour: Bool) throws -> PDFObjects {
        let doc = try QPDFDocument(reading: pdf, repairing: true)
        var out = PDFObjects()
        out.repairs = doc.repairs
        let transparent = try PageTransparency.found(in: doc)
        var colours = ColourScan(doc: doc)
        for i in 0..<(try doc.pageCount) {
            let page = try doc.page(i)
            var facts = Page(hasTrimBox: try doc.has(page, "/TrimBox"), hasArtBox: try doc.has(page, "/ArtBox"))
            facts.transparency = transparent[i]
            if facts.transparency == nil, try doc.has(page, "/Group") {
                let group = try doc.get(page, "/Group")
                if try doc.isDictionary(group), try doc.nameValue(try doc.get(group, "/S")) == "/Transparency" {
                    facts.transparency = "the page itself is a transparency group (/Group /S /Transparency)"
                }
            }
            if colour { facts.colour = try colours.page(page) }
            out.pages.append(facts)
        }
        let trailer = try doc.trailer()
        let info = try doc.get(trailer, "/Info")
        for (key, value) in try doc.entries(of: info) {
            if try doc.isString(value) { out.info[key] = try doc.utf8(value) } else if let name = try doc.nameValue(value) { out.info[key] = name }
        }
        let preferences = try doc.get(try doc.root(), "/ViewerPreferences")
        if try doc.isDictionary(preferences) {
            out.readsRightToLeft = try doc.nameValue(try doc.get(preferences, "/Direction")) == "/R2L"
        }
        let intents = try doc.get(try doc.root(), "/OutputIntents")
        if try doc.isArray(intents) {
            for intent in try doc.items(intents) where try doc.isDictionary(intent) {
                let described = try doc.has(intent, "/DestOutputProfile") || doc.has(intent, "/OutputConditionIdentifier")
                out.outputIntents.append((try doc.nameValue(try doc.get(intent, "/S")) ?? "none", described))
            }
        }
        return out
    }
}

/// Finds RGB (and Lab) on a page: colour spaces in its resources, pictures and shadings, and the
/// operators of its content and of the forms it draws that set an RGB colour (`rg`, `RG`,
/// `/DeviceRGB cs`, an inline image in RGB).
struct ColourScan {
    let doc: QPDFDocument
    /// What each object walked (by number) came to, "" for nothing: a form or picture on every page is read once.
    private var known: [Int: String] = [:]

    init(doc: QPDFDocument) { self.doc = doc }

    mutating func page(_ page: QPDFDocument.Handle) throws -> String? {
        guard let resources = try doc.inherited(page, "/Resources") else { return nil }
        if let found = try self.resources(resources) { return found }
        return Self.operators(try doc.pageContent(page)).map { "the page's content \($0)" }
    }

    /// "ICCBased with 3 components", or nil for a space that prints in CMYK or grey.
    func notCMYK(_ space: QPDFDocument.Handle, depth: Int = 0) throws -> String? {
        guard depth < 8 else { return nil }
        if let name = try doc.nameValue(space) {
            switch name {
            case "/DeviceRGB", "/RGB": return "DeviceRGB"
            case "/CalRGB", "/Lab": return String(name.dropFirst())
            default: return nil
            }
        }
        guard try doc.isArray(space), let family = try doc.nameValue(try doc.item(space, 0)) else { return nil }
        switch family {
        case "/CalRGB", "/Lab": return String(family.dropFirst())
        case "/ICCBased":
            let stream = try doc.item(space, 1)
            guard try doc.isStream(stream) else { return nil }
            let n = try doc.intValue(try doc.get(try doc.streamDictionary(stream), "/N"))
            return n == 3 ? "ICCBased with 3 components (RGB)" : nil
        case "/Indexed", "/Pattern":
            return try notCMYK(try doc.item(space, 1), depth: depth + 1).map { "\(family.dropFirst()) over \($0)" }
        case "/Separation", "/DeviceN":
            return try notCMYK(try doc.item(space, 2), depth: depth + 1)
                .map { "\(family.dropFirst()) with a \($0) alternate" }
        default:
            return nil
        }
    }

    private mutating func resources(_ resources: QPDFDocument.Handle) throws -> String? {
        try memo(resources) { scan in
            guard try scan.doc.isDictionary(resources) else { return nil }
            for (key, space) in try scan.doc.entries(of: try scan.doc.get(resources, "/ColorSpace")) {
                if let what = try scan.notCMYK(space) { return "colour space \(key)\(try scan.doc.objectLabel(space)) is \(what)" }
            }
            for (key, shading) in try scan.doc.entries(of: try scan.doc.get(resources, "/Shading")) {
                if let what = try scan.shading(shading) { return "shading \(key)\(try scan.doc.objectLabel(shading)) is \(what)" }
            }
            for (key, pattern) in try scan.doc.entries(of: try scan.doc.get(resources, "/Pattern")) {
                if let what = try scan.pattern(pattern) { return "pattern \(key)\(try scan.doc.objectLabel(pattern)) \(what)" }
            }
            for (key, xobject) in try scan.doc.entries(of: try scan.doc.get(resources, "/XObject")) {
                if let what = try scan.xobject(xobject, named: key) { return what }
            }
            return nil
        }
    }

    private func shading(_ shading: QPDFDocument.Handle) throws -> String? {
        let dict = try doc.isStream(shading) ? try doc.streamDictionary(shading) : shading
        guard try doc.isDictionary(dict) else { return nil }
        return try notCMYK(try doc.get(dict, "/ColorSpace"))
    }

    private mutating func pattern(_ pattern: QPDFDocument.Handle) throws -> String? {
        if try doc.isStream(pattern) {
            let dict = try doc.streamDictionary(pattern)
            if let found = try resources(try doc.get(dict, "/Resources")) { return "→ \(found)" }
            return Self.operators(try doc.streamData(pattern)).map { "draws with \($0)" }
        }
        guard try doc.isDictionary(pattern) else { return nil }
        return try shading(try doc.get(pattern, "/Shading")).map { "shades in \($0)" }
    }

    private mutating func xobject(_ xobject: QPDFDocument.Handle, named key: String) throws -> String? {
        guard try doc.isStream(xobject) else { return nil }
        return try memo(xobject) { scan in
            let dict = try scan.doc.streamDictionary(xobject)
            let label = key + (try scan.doc.objectLabel(xobject))
            switch try scan.doc.nameValue(try scan.doc.get(dict, "/Subtype")) {
            case "/Image":
                let size = "\(try scan.doc.intValue(try scan.doc.get(dict, "/Width")))×\(try scan.doc.intValue(try scan.doc.get(dict, "/Height"))) px"
                let about = (try scan.doc.objectID(xobject)).map { "object \($0), \(size)" } ?? size
                return try scan.notCMYK(try scan.doc.get(dict, "/ColorSpace")).map { "image \(key) (\(about)) is \($0)" }
            case "/Form":
                if let found = try scan.resources(try scan.doc.get(dict, "/Resources")) { return "form \(label) → \(found)" }
                return Self.operators(try scan.doc.streamData(xobject)).map { "form \(label)'s content \($0)" }
            default:
                return nil
            }
        }
    }

    private mutating func memo(_ object: QPDFDocument.Handle, _ body: (inout ColourScan) throws -> String?) throws -> String? {
        guard let id = try doc.objectID(object) else { return try body(&self) }
        if let answer = known[id] { return answer.isEmpty ? nil : answer }
        known[id] = ""
        let answer = try body(&self)
        known[id] = answer ?? ""
        return answer
    }

    /// The first operator in `content` that sets an RGB colour, described ("sets an RGB fill (0.9 0.8 0.7 rg)").
    /// Strings, comments and inline image data are stepped over, not read as operators.
    static func operators(_ content: [UInt8]) -> String? {
        var lexer = ContentLexer(content)
        var operands: [String] = []
        while let token = lexer.next() {
            switch token {
            case .operand(let text):
                operands.append(text)
            case .op(let op):
                defer { operands.removeAll(keepingCapacity: true) }
                switch op {
                case "rg", "RG":
                    let what = op == "rg" ? "fill" : "stroke"
                    return "sets an RGB \(what) colour (\((operands.suffix(3) + [op]).joined(separator: " ")))"
                case "cs", "CS":
                    if operands.last == "/DeviceRGB" || operands.last == "/CalRGB" {
                        return "sets the \(op == "cs" ? "fill" : "stroke") colour space to \(operands.last!.dropFirst()) (\(operands.last!) \(op))"
                    }
                case "BI":
                    if let space = lexer.inlineImageColourSpace(), ["/RGB", "/DeviceRGB", "/CalRGB"].contains(space) {
                        return "draws an inline image in RGB (/CS \(space))"
                    }
                default:
                    break
                }
            }
        }
        return nil
    }
}

/// Just enough of PDF's content syntax to find operators: numbers and names are operands,
/// strings, arrays and dictionaries are stepped over as opaque operands.
struct ContentLexer {
    enum Token { case operand(String), op(String) }

    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0x00 }
    static func isDelimiter(_ b: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(b) }

    mutating func next() -> Token? {
        while i < bytes.count {
            let b = bytes[i]
            if Self.isSpace(b) { i += 1; continue }
            if b == UInt8(ascii: "%") {
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
                continue
            }
            switch b {
            case UInt8(ascii: "("):
                skipString()
                return .operand("(…)")
            case UInt8(ascii: "<"):
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "<") { i += 2; return .operand("<<") }
                while i < bytes.count, bytes[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                return .operand("<…>")
            case UInt8(ascii: ">"):
                i += bytes.count > i + 1 && bytes[i + 1] == UInt8(ascii: ">") ? 2 : 1
                return .operand(">>")
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                i += 1
                return .operand(String(UnicodeScalar(b)))
            case UInt8(ascii: "/"):
                let start = i
                i += 1
                while i < bytes.count, !Self.isSpace(bytes[i]), !Self.isDelimiter(bytes[i]) { i += 1 }
                return .operand(String(decoding: bytes[start..<i], as: UTF8.self))
            default:
                let start = i
                while i < bytes.count, !Self.isSpace(bytes[i]), !Self.isDelimiter(bytes[i]) { i += 1 }
                if i == start { i += 1; continue }
                let word = String(decoding: bytes[start..<i], as: UTF8.self)
                if let first = word.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                    || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || word == "true" || word == "false" || word == "null" {
                    return .operand(word)
                }
                return .op(word)
            }
        }
        return nil
    }

    private mutating func skipString() {
        var depth = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "\\") { i += 1; continue }
            if b == UInt8(ascii: "(") { depth += 1 } else if b == UInt8(ascii: ")") { depth -= 1; if depth == 0 { return } }
        }
    }

    /// After `BI`: reads the inline image's dictionary up to `ID`, steps over its data to `EI`, and
    /// returns the colour space it names (`/CS` or `/ColorSpace`), nil when it names none or a resource.
    mutating func inlineImageColourSpace() -> String? {
        var space: String?
        var previous: String?
        while let token = next() {
            if case .op("ID") = token { break }
            if case .operand(let text) = token {
                if previous == "/CS" || previous == "/ColorSpace" { space = text }
                previous = text
            }
        }
        // The data runs to the first "EI" standing alone between white space.
        i += 1
        while i + 2 < bytes.count {
            if Self.isSpace(bytes[i]), bytes[i + 1] == UInt8(ascii: "E"), bytes[i + 2] == UInt8(ascii: "I"),
               i + 3 >= bytes.count || Self.isSpace(bytes[i + 3]) || Self.isDelimiter(bytes[i + 3]) {
                i += 3
                break
            }
            i += 1
        }
        return space
    }
}

extension QPDFDocument {
    /// A stream's data, decoded by every filter qpdf knows.
    func streamData(_ stream: Handle) throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        var filtered: QPDF_BOOL = 0
        _ = try call(in: "reading a stream") { qpdf_oh_get_stream_data($0, stream, qpdf_dl_generalized, &filtered, &buffer, &length) }
        defer { free(buffer) }
        guard let buffer else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }
}
