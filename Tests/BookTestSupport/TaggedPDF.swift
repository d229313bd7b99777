import Foundation

/// A tagged PDF as a reader that follows its tags reads it: the structure tree from qpdf's JSON
/// (streams decoded by qpdf), and each element's text, gathered from the marked-content
/// sequences it names on each page and decoded through the fonts' `/ToUnicode` maps. An
/// `/ActualText` span stands for the glyphs inside it.
public struct TaggedPDF {
    public struct Element {
        public var type: String
        /// The object, "12 0 R".
        public var ref: String
        public var alt: String?
        public var kids: [Element]
        /// The marked-content sequences the element names itself, in order: (page index, MCID).
        public var content: [(page: Int, mcid: Int)]
        /// Its own content's text and its kids', in the order of its `/K`.
        public var text: String

        /// This element and every one under it, depth first.
        public var all: [Element] { [self] + kids.flatMap(\.all) }
    }

    /// The objects by reference ("12 0 R"), each a dictionary (a stream's dictionary, its data
    /// under "data" as bytes).
    public let objects: [String: Any]
    public let catalog: [String: Any]
    /// The page objects' references, in page order.
    public let pages: [String]
    /// The structure tree root's elements.
    public let elements: [Element]
    /// Each page's marked-content sequences with an MCID, and their text.
    public let markedText: [[Int: String]]

    public init(_ pdf: URL) throws {
        let out = try run("qpdf", ["--json", "--json-stream-data=inline", "--decode-level=generalized", pdf.path])
        guard out.status == 0 || out.status == 3 else { throw ToolError("qpdf --json failed: \(out.stderr)") }
        let root = try JSONSerialization.jsonObject(with: out.stdoutData) as! [String: Any]
        let raw = (root["qpdf"] as! [Any])[1] as! [String: Any]
        var objects: [String: Any] = [:]
        for (key, value) in raw {
            guard let entry = value as? [String: Any] else { continue }
            let ref = key == "trailer" ? "trailer" : String(key.dropFirst(4))
            if let stream = entry["stream"] as? [String: Any] {
                var dict = stream["dict"] as? [String: Any] ?? [:]
                if let data = stream["data"] as? String { dict["data"] = [UInt8](Data(base64Encoded: data) ?? Data()) }
                objects[ref] = dict
            } else {
                objects[ref] = entry["value"] ?? NSNull()
            }
        }
        self.objects = objects
        let trailer = objects["trailer"] as! [String: Any]
        catalog = objects[trailer["/Root"] as! String] as! [String: Any]
        pages = (root["pages"] as! [[String: Any]]).map { $0["object"] as! String }
        var markedText: [[Int: String]] = []
        for page in pages { markedText.append(try Self.markedText(of: page, objects: objects)) }
        self.markedText = markedText
        let pageIndex = Dictionary(uniqueKeysWithValues: pages.enumerated().map { ($1, $0) })
        if let treeRef = catalog["/StructTreeRoot"] as? String, let tree = objects[treeRef] as? [String: Any] {
            elements = Self.elements(tree["/K"], page: nil, objects: objects, pageIndex: pageIndex, text: markedText)
        } else {
            elements = []
        }
    }

    /// A value, its reference followed.
    public func resolve(_ value: Any?) -> Any? {
        if let ref = value as? String, ref.hasSuffix(" R") { return objects[ref] }
        return value
    }

    /// The elements in `k` (an element's `/K`) with `page` the page its integer MCIDs are on.
    private static func elements(_ k: Any?, page: Int?, objects: [String: Any], pageIndex: [String: Int], text: [[Int: String]]) -> [Element] {
        let items = (k as? [Any]) ?? (k.map { [$0] } ?? [])
        return items.compactMap { item -> Element? in
            guard let ref = item as? String, let d = objects[ref] as? [String: Any], let s = d["/S"] as? String else { return nil }
            let own = (d["/Pg"] as? String).flatMap { pageIndex[$0] } ?? page
            var content: [(page: Int, mcid: Int)] = []
            var kids: [Element] = []
            var words = ""
            for kid in (d["/K"] as? [Any]) ?? (d["/K"].map { [$0] } ?? []) {
                if let mcid = kid as? Int, let own {
                    content.append((own, mcid))
                    words += text[own][mcid] ?? ""
                } else if let mcr = kid as? [String: Any], let mcid = mcr["/MCID"] as? Int,
                          let p = (mcr["/Pg"] as? String).flatMap({ pageIndex[$0] }) ?? own {
                    content.append((p, mcid))
                    words += text[p][mcid] ?? ""
                } else if let sub = elements(kid, page: own, objects: objects, pageIndex: pageIndex, text: text).first {
                    kids.append(sub)
                    words += sub.text
                }
            }
            return Element(type: String(s.dropFirst()), ref: ref, alt: PDFReaders.text(d["/Alt"]), kids: kids,
                           content: content, text: words)
        }
    }

    /// A font's codes and the text each stands for.
    struct Font {
        var codeLength: Int
        var unicode: [UInt32: String]

        func text(_ bytes: [UInt8]) -> String {
            var out = ""
            var i = 0
            while i + codeLength <= bytes.count {
                let code = bytes[i..<(i + codeLength)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                out += unicode[code] ?? "\u{FFFD}"
                i += codeLength
            }
            return out
        }
    }

    /// A page's marked-content sequences that have an MCID, and the text shown in each.
    private static func markedText(of page: String, objects: [String: Any]) throws -> [Int: String] {
        guard let dict = objects[page] as? [String: Any] else { return [:] }
        let resources = (dict["/Resources"] as? String).flatMap { objects[$0] as? [String: Any] } ?? dict["/Resources"] as? [String: Any] ?? [:]
        let fontDict = (resources["/Font"] as? String).flatMap { objects[$0] as? [String: Any] } ?? resources["/Font"] as? [String: Any] ?? [:]
        var fonts: [String: Font] = [:]
        for (name, ref) in fontDict {
            guard let ref = ref as? String, let font = objects[ref] as? [String: Any] else { continue }
            fonts[name] = Self.font(font, objects: objects)
        }
        let refs = (dict["/Contents"] as? [Any]) ?? (dict["/Contents"].map { [$0] } ?? [])
        var bytes: [UInt8] = []
        for case let ref as String in refs {
            bytes += ((objects[ref] as? [String: Any])?["data"] as? [UInt8] ?? []) + [10]
        }
        /// The open marked-content sequences: each one's MCID and its `/ActualText`.
        var stack: [(mcid: Int?, actual: String?)] = []
        var text: [Int: String] = [:]
        var font: Font?
        func add(_ s: String) {
            guard !stack.contains(where: { $0.actual != nil }), let mcid = stack.last(where: { $0.mcid != nil })?.mcid else { return }
            text[mcid, default: ""] += s
        }
        for op in ContentSyntax.operations(bytes) {
            switch op.op {
            case "BDC":
                let properties = op.operands.last?.entries
                let mcid = properties?["/MCID"]?.number.map { Int($0) }
                if let mcid { text[mcid, default: ""] += "" }
                stack.append((mcid, properties?["/ActualText"]?.bytes.map(PDFValue.text)))
            case "BMC": stack.append((nil, nil))
            case "EMC":
                guard let span = stack.popLast() else { continue }
                if let actual = span.actual { add(actual) }
            case "Tf": font = op.operands.first?.nameValue.flatMap { fonts[$0] }
            case "Tj", "'": if let s = op.operands.last?.bytes, let font { add(font.text(s)) }
            case "\"": if let s = op.operands.last?.bytes, let font { add(font.text(s)) }
            case "TJ":
                for case .string(let s) in op.operands.last?.items ?? [] { if let font { add(font.text(s)) } }
            default: break
            }
        }
        return text
    }

    private static func font(_ font: [String: Any], objects: [String: Any]) -> Font {
        let codeLength = font["/Subtype"] as? String == "/Type0" ? 2 : 1
        var unicode: [UInt32: String] = [:]
        guard let ref = font["/ToUnicode"] as? String, let cmap = (objects[ref] as? [String: Any])?["data"] as? [UInt8] else {
            return Font(codeLength: codeLength, unicode: unicode)
        }
        func code(_ b: [UInt8]) -> UInt32 { b.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        func utf16(_ b: [UInt8]) -> String { PDFValue.text([0xFE, 0xFF] + b) }
        for op in ContentSyntax.operations(cmap) {
            let v = op.operands
            switch op.op {
            case "endbfchar":
                for k in stride(from: 0, to: v.count - 1, by: 2) {
                    if let src = v[k].bytes, let dst = v[k + 1].bytes { unicode[code(src)] = utf16(dst) }
                }
            case "endbfrange":
                for k in stride(from: 0, to: v.count - 2, by: 3) {
                    guard let lo = v[k].bytes.map(code), let hi = v[k + 1].bytes.map(code), lo <= hi else { continue }
                    if let list = v[k + 2].items {
                        for (n, dst) in list.enumerated() where lo + UInt32(n) <= hi {
                            if let b = dst.bytes { unicode[lo + UInt32(n)] = utf16(b) }
                        }
                    } else if var dst = v[k + 2].bytes, !dst.isEmpty {
                        for c in lo...hi {
                            unicode[c] = utf16(dst)
                            dst[dst.count - 1] &+= 1
                        }
                    }
                }
            default: break
            }
        }
        return Font(codeLength: codeLength, unicode: unicode)
    }
}
