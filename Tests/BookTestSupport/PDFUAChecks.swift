import Foundation

/// The machine-checkable rules of PDF/UA-1 (ISO 14289-1) that a book's PDF can break, checked on
/// the file as written (`TaggedPDF`): each failure says the rule and where. No validator for
/// PDF/UA runs on this machine (veraPDF needs a download), so these stand in for one; they cover
/// what bookrender writes, not every rule.
public enum PDFUAChecks {
    /// ISO 32000-1's standard structure types (14.8.4); anything else needs a `/RoleMap`.
    static let standardTypes: Set<String> = [
        "Document", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption", "TOC", "TOCI", "Index", "NonStruct", "Private",
        "P", "H", "H1", "H2", "H3", "H4", "H5", "H6", "L", "LI", "Lbl", "LBody", "Table", "TR", "TH", "TD", "THead", "TBody",
        "TFoot", "Span", "Quote", "Note", "Reference", "BibEntry", "Code", "Link", "Annot", "Ruby", "RB", "RT", "RP", "Warichu",
        "WT", "WP", "Figure", "Formula", "Form",
    ]

    /// Operators that paint, which must lie inside marked content, a structure element's or an
    /// `/Artifact`'s (7.1).
    static let painting: Set<String> = ["S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "Do", "sh", "EI", "Tj", "TJ", "'", "\""]

    public static func failures(_ pdf: TaggedPDF, xmp: String) -> [String] {
        var out: [String] = []
        let catalog = pdf.catalog
        // 7.1: the file is tagged, with nothing suspect.
        let markInfo = pdf.resolve(catalog["/MarkInfo"]) as? [String: Any]
        if markInfo?["/Marked"] as? Bool != true { out.append("7.1: the catalog's /MarkInfo has no /Marked true") }
        if markInfo?["/Suspects"] as? Bool == true { out.append("7.1: /MarkInfo /Suspects is true") }
        if pdf.elements.isEmpty { out.append("7.1: no structure tree") }
        // 7.2: the natural language.
        if (PDFReaders.text(catalog["/Lang"]) ?? "").isEmpty { out.append("7.2: the catalog has no /Lang") }
        // 7.1, 8–10: the title shown, and in the XMP with the PDF/UA identifier.
        let preferences = pdf.resolve(catalog["/ViewerPreferences"]) as? [String: Any]
        if preferences?["/DisplayDocTitle"] as? Bool != true { out.append("7.1: /ViewerPreferences has no /DisplayDocTitle true") }
        if !xmp.contains("<dc:title>") { out.append("7.1: the XMP has no dc:title") }
        if !xmp.contains("<pdfuaid:part>1</pdfuaid:part>") || !xmp.contains("xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"") {
            out.append("5: the XMP has no PDF/UA identifier (pdfuaid:part 1)")
        }
        out += structureFailures(pdf)
        out += contentFailures(pdf)
        out += fontFailures(pdf)
        return out
    }

    public static func structureFailures(_ pdf: TaggedPDF) -> [String] {
        var out: [String] = []
        let all = pdf.elements.flatMap(\.all)
        let roleMap = (pdf.resolve((pdf.resolve(pdf.catalog["/StructTreeRoot"]) as? [String: Any])?["/RoleMap"]) as? [String: Any]) ?? [:]
        for e in all where !standardTypes.contains(e.type) && roleMap["/" + e.type] == nil {
            out.append("7.1: element \(e.ref) is of type \(e.type), neither standard nor role-mapped")
        }
        // 7.3: every figure has alternate text.
        for e in all where e.type == "Figure" && (e.alt ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            out.append("7.3: Figure \(e.ref) has no /Alt")
        }
        // 7.4.2: numbered headings start at H1 and skip no level.
        var level = 0
        for e in all {
            guard e.type.count == 2, e.type.first == "H", let n = Int(e.type.dropFirst()) else { continue }
            if n > level + 1 { out.append("7.4.2: \(e.type) \(e.ref) follows H\(level) (\(level == 0 ? "the first heading must be H1" : "a level is skipped"))") }
            level = n
        }
        // Each element names its parent (`/P`): the element above it, or the tree's root.
        let rootRef = pdf.catalog["/StructTreeRoot"] as? String
        func checkParents(_ elements: [TaggedPDF.Element], parent: String?) {
            for e in elements {
                let named = (pdf.objects[e.ref] as? [String: Any])?["/P"] as? String
                if named != parent { out.append("7.1: element \(e.ref) names \(named ?? "no") parent, not \(parent ?? "the root")") }
                checkParents(e.kids, parent: e.ref)
            }
        }
        checkParents(pdf.elements, parent: rootRef)
        if let rootRef, (pdf.objects[rootRef] as? [String: Any])?["/Type"] as? String != "/StructTreeRoot" {
            out.append("7.1: the catalog's /StructTreeRoot \(rootRef) is not of type StructTreeRoot")
        }
        // Each marked-content sequence belongs to one element, and the parent tree says which.
        var owner: [String: String] = [:]
        for e in all {
            for c in e.content {
                let key = "\(c.page):\(c.mcid)"
                if let other = owner[key] { out.append("7.1: page \(c.page + 1) MCID \(c.mcid) belongs to \(other) and \(e.ref)") }
                owner[key] = e.ref
                if pdf.markedText[c.page][c.mcid] == nil {
                    out.append("7.1: \(e.ref) names MCID \(c.mcid) of page \(c.page + 1), which its content does not have")
                }
            }
        }
        let tree = pdf.resolve(pdf.catalog["/StructTreeRoot"]) as? [String: Any]
        let parentTree = numberTree(pdf.resolve(tree?["/ParentTree"]), pdf)
        for (index, page) in pdf.pages.enumerated() {
            let mcids = pdf.markedText[index].keys.sorted()
            guard !mcids.isEmpty else { continue }
            guard let key = (pdf.objects[page] as? [String: Any])?["/StructParents"] as? Int,
                  let array = pdf.resolve(parentTree[key]) as? [Any] else {
                out.append("7.1: page \(index + 1) has marked content but no parent tree entry")
                continue
            }
            for mcid in mcids {
                let named = mcid < array.count ? array[mcid] as? String : nil
                if named != owner["\(index):\(mcid)"] {
                    out.append("7.1: the parent tree gives \(named ?? "nothing") for page \(index + 1) MCID \(mcid), the tree \(owner["\(index):\(mcid)"] ?? "nothing")")
                }
            }
        }
        return out
    }

    /// A number tree's keys and values (PDF 32000-1 §7.9.7).
    static func numberTree(_ node: Any?, _ pdf: TaggedPDF) -> [Int: Any] {
        guard let node = node as? [String: Any] else { return [:] }
        var out: [Int: Any] = [:]
        if let nums = node["/Nums"] as? [Any] {
            for k in stride(from: 0, to: nums.count - 1, by: 2) { if let key = nums[k] as? Int { out[key] = nums[k + 1] } }
        }
        for kid in node["/Kids"] as? [Any] ?? [] { out.merge(numberTree(pdf.resolve(kid), pdf)) { a, _ in a } }
        return out
    }

    /// 7.1: every painting operator inside marked content; 7.18.3: a page with annotations has
    /// `/Tabs /S`.
    public static func contentFailures(_ pdf: TaggedPDF) -> [String] {
        var out: [String] = []
        for (index, page) in pdf.pages.enumerated() {
            guard let dict = pdf.objects[page] as? [String: Any] else { continue }
            if !((pdf.resolve(dict["/Annots"]) as? [Any]) ?? []).isEmpty, dict["/Tabs"] as? String != "/S" {
                out.append("7.18.3: page \(index + 1) has annotations but no /Tabs /S")
            }
            let refs = (dict["/Contents"] as? [Any]) ?? (dict["/Contents"].map { [$0] } ?? [])
            var bytes: [UInt8] = []
            for case let ref as String in refs { bytes += ((pdf.objects[ref] as? [String: Any])?["data"] as? [UInt8] ?? []) + [10] }
            var depth = 0, unmarked: [String] = []
            for op in ContentSyntax.operations(bytes) {
                switch op.op {
                case "BDC", "BMC": depth += 1
                case "EMC": depth -= 1
                case let o where painting.contains(o) && depth == 0: unmarked.append(o)
                default: break
                }
            }
            if !unmarked.isEmpty { out.append("7.1: page \(index + 1) paints outside marked content: \(unmarked.prefix(5))") }
        }
        return out
    }

    /// 7.21: every font the pages use is embedded, with a `/ToUnicode` map; an embedded TrueType
    /// CIDFont has a `/CIDToGIDMap` (7.21.3.2).
    public static func fontFailures(_ pdf: TaggedPDF) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        for page in pdf.pages {
            let dict = pdf.objects[page] as? [String: Any]
            let resources = pdf.resolve(dict?["/Resources"]) as? [String: Any]
            let fonts = pdf.resolve(resources?["/Font"]) as? [String: Any] ?? [:]
            for case let ref as String in fonts.values where seen.insert(ref).inserted {
                guard let font = pdf.objects[ref] as? [String: Any] else { continue }
                let name = (font["/BaseFont"] as? String) ?? ref
                if font["/ToUnicode"] == nil { out.append("7.21.7: font \(name) has no /ToUnicode") }
                guard font["/Subtype"] as? String != "/Type3" else { continue }
                var descriptorOwner = font
                if font["/Subtype"] as? String == "/Type0" {
                    guard let descendant = ((font["/DescendantFonts"] as? [Any])?.first).flatMap({ pdf.resolve($0) as? [String: Any] }) else {
                        out.append("7.21: font \(name) has no descendant font")
                        continue
                    }
                    if descendant["/Subtype"] as? String == "/CIDFontType2", descendant["/CIDToGIDMap"] == nil {
                        out.append("7.21.3.2: CIDFontType2 \(name) has no /CIDToGIDMap")
                    }
                    descriptorOwner = descendant
                }
                let descriptor = pdf.resolve(descriptorOwner["/FontDescriptor"]) as? [String: Any] ?? [:]
                if descriptor["/FontFile"] == nil && descriptor["/FontFile2"] == nil && descriptor["/FontFile3"] == nil {
                    out.append("7.21.4.1: font \(name) is not embedded")
                }
            }
        }
        return out
    }
}
