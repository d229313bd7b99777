import Foundation
import CQPDF

/// Whether a page really uses transparency, as PDF/X-1a and the printers that follow it (KDP, Lulu)
/// forbid: a soft mask on a picture or in a graphics state, a constant alpha below 1, a blend mode
/// other than Normal, or a transparency group on a form it draws. The page's own `/Group` is not
/// counted: cairo gives every page one, and without any of the others it changes nothing drawn.
enum PageTransparency {
    /// Indices (from 0) of the pages of `doc` that use transparency.
    static func pages(in doc: QPDFDocument) throws -> [Int] {
        try found(in: doc).keys.sorted()
    }

    /// What each page that uses transparency uses, by page index (from 0): the first thing found,
    /// named by its resource name and object number ("graphics state /GS1 (object 12) sets /ca 0.5").
    static func found(in doc: QPDFDocument) throws -> [Int: String] {
        var found: [Int: String] = [:]
        var known: [Int: String] = [:]
        for i in 0..<(try doc.pageCount) {
            let page = try doc.page(i)
            guard let resources = try doc.inherited(page, "/Resources") else { continue }
            if let what = try uses(resources: resources, doc, &known) { found[i] = what }
        }
        return found
    }

    /// `known`: what the resources, forms and fonts already walked (by object number) came to, ""
    /// for nothing, so a picture used on every page is looked at once and a cycle ends.
    private static func uses(resources: QPDFDocument.Handle, _ doc: QPDFDocument, _ known: inout [Int: String]) throws -> String? {
        try memo(resources, doc, &known) { known in
            guard try doc.isDictionary(resources) else { return nil }
            for (key, state) in try doc.entries(of: try doc.get(resources, "/ExtGState")) {
                if let what = try graphicsStateTransparency(state, doc) { return "graphics state \(key)\(try doc.objectLabel(state)) \(what)" }
            }
            for (key, xobject) in try doc.entries(of: try doc.get(resources, "/XObject")) {
                if let what = try xobjectUses(xobject, named: key, doc, &known) { return what }
            }
            for (key, pattern) in try doc.entries(of: try doc.get(resources, "/Pattern")) {
                let dict = try doc.isStream(pattern) ? try doc.streamDictionary(pattern) : pattern
                guard try doc.isDictionary(dict) else { continue }
                if let what = try graphicsStateTransparency(try doc.get(dict, "/ExtGState"), doc) { return "pattern \(key) → graphics state \(what)" }
                if let what = try uses(resources: try doc.get(dict, "/Resources"), doc, &known) { return "pattern \(key) → \(what)" }
            }
            for (key, font) in try doc.entries(of: try doc.get(resources, "/Font")) where try doc.isDictionary(font) {
                // Type 3 glyphs (cairo's colour emoji) draw with resources of their own.
                if let what = try uses(resources: try doc.get(font, "/Resources"), doc, &known) { return "Type 3 font \(key) → \(what)" }
            }
            return nil
        }
    }

    private static func xobjectUses(_ xobject: QPDFDocument.Handle, named key: String, _ doc: QPDFDocument,
                                    _ known: inout [Int: String]) throws -> String? {
        guard try doc.isStream(xobject) else { return nil }
        return try memo(xobject, doc, &known) { known in
            let dict = try doc.streamDictionary(xobject)
            let label = key + (try doc.objectLabel(xobject))
            switch try doc.nameValue(try doc.get(dict, "/Subtype")) {
            case "/Image":
                if try doc.has(dict, "/SMask") { return "image \(label) has a soft mask (/SMask)" }
                if try doc.has(dict, "/SMaskInData"), try doc.numberValue(try doc.get(dict, "/SMaskInData")) != 0 {
                    return "image \(label) has a soft mask in its data (/SMaskInData)"
                }
                return nil
            case "/Form":
                if try doc.has(dict, "/Group") { return "form \(label) is a transparency group (/Group)" }
                return try uses(resources: try doc.get(dict, "/Resources"), doc, &known).map { "form \(label) → \($0)" }
            default:
                return nil
            }
        }
    }

    /// What makes a graphics state transparent: "sets /ca 0.5", or nil.
    static func graphicsStateTransparency(_ state: QPDFDocument.Handle, _ doc: QPDFDocument) throws -> String? {
        guard try doc.isDictionary(state) else { return nil }
        if try doc.has(state, "/SMask"), try doc.nameValue(try doc.get(state, "/SMask")) != "/None" { return "has a soft mask (/SMask)" }
        for key in ["/CA", "/ca"] where try doc.has(state, key) {
            let alpha = try doc.numberValue(try doc.get(state, key))
            if alpha < 1 { return "sets \(key) \(QPDFDocument.numberText(alpha))" }
        }
        if try doc.has(state, "/BM") {
            let mode = try doc.get(state, "/BM")
            // An array of modes: the first one the reader knows is used; ours all know Normal.
            let first = try doc.isArray(mode) ? try doc.item(mode, 0) : mode
            if let name = try doc.nameValue(first), name != "/Normal", name != "/Compatible" { return "sets blend mode \(name)" }
        }
        return nil
    }

    private static func memo(_ object: QPDFDocument.Handle, _ doc: QPDFDocument, _ known: inout [Int: String],
                             _ body: (inout [Int: String]) throws -> String?) throws -> String? {
        guard let id = try doc.objectID(object) else { return try body(&known) }
        if let answer = known[id] { return answer.isEmpty ? nil : answer }
        known[id] = ""
        let answer = try body(&known)
        known[id] = answer ?? ""
        return answer
    }
}

extension QPDFDocument {
    /// The values of a dictionary (empty for anything else), in key order.
    func values(of dictionary: Handle) throws -> [Handle] {
        try entries(of: dictionary).map(\.value)
    }

    /// The keys and values of a dictionary (empty for anything else), in key order.
    func entries(of dictionary: Handle) throws -> [(key: String, value: Handle)] {
        guard try isDictionary(dictionary) else { return [] }
        var keys: [String] = []
        try call { q in
            qpdf_oh_begin_dict_key_iter(q, dictionary)
            while qpdf_oh_dict_more_keys(q) != 0 {
                if let key = qpdf_oh_dict_next_key(q) { keys.append(String(cString: key)) }
            }
        }
        return try keys.map { ($0, try get(dictionary, $0)) }
    }

    /// " (object 12)" for an indirect object, "" for a direct one: where a finding can be looked up.
    func objectLabel(_ h: Handle) throws -> String {
        try objectID(h).map { " (object \($0))" } ?? ""
    }

    /// A name object's text with its slash, nil for anything else.
    func nameValue(_ h: Handle) throws -> String? {
        guard try call({ qpdf_oh_is_name($0, h) }) != 0 else { return nil }
        return try call { q in qpdf_oh_get_name(q, h).map { String(cString: $0) } }
    }

    func numberValue(_ h: Handle) throws -> Double {
        guard try call({ qpdf_oh_is_number($0, h) }) != 0 else { return 0 }
        return try call { qpdf_oh_get_numeric_value($0, h) }
    }

    func isArray(_ h: Handle) throws -> Bool { try call { qpdf_oh_is_array($0, h) } != 0 }
    func item(_ array: Handle, _ index: Int) throws -> Handle { try call { qpdf_oh_get_array_item($0, array, Int32(index)) } }
}
