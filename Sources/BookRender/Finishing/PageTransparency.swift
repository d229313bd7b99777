import Foundation
import CQPDF

/// Whether a page really uses transparency, as PDF/X-1a and the printers that follow it (KDP, Lulu)
/// forbid: a soft mask on a picture or in a graphics state, a constant alpha below 1, a blend mode
/// other than Normal, or a transparency group on a form it draws. The page's own `/Group` is not
/// counted: cairo gives every page one, and without any of the others it changes nothing drawn.
enum PageTransparency {
    /// Indices (from 0) of the pages of `doc` that use transparency.
    static func pages(in doc: QPDFDocument) throws -> [Int] {
        var found: [Int] = []
        var known: [Int: Bool] = [:]
        for i in 0..<(try doc.pageCount) {
            let page = try doc.page(i)
            guard let resources = try doc.inherited(page, "/Resources") else { continue }
            if try uses(resources: resources, doc, &known) { found.append(i) }
        }
        return found
    }

    /// `known`: what the resources, forms and fonts already walked (by object number) came to,
    /// so a picture used on every page is looked at once and a cycle ends.
    private static func uses(resources: QPDFDocument.Handle, _ doc: QPDFDocument, _ known: inout [Int: Bool]) throws -> Bool {
        try memo(resources, doc, &known) { known in
            guard try doc.isDictionary(resources) else { return false }
            for state in try doc.values(of: try doc.get(resources, "/ExtGState")) where try graphicsStateIsTransparent(state, doc) {
                return true
            }
            for xobject in try doc.values(of: try doc.get(resources, "/XObject")) {
                if try xobjectUses(xobject, doc, &known) { return true }
            }
            for pattern in try doc.values(of: try doc.get(resources, "/Pattern")) {
                let dict = try doc.isStream(pattern) ? try doc.streamDictionary(pattern) : pattern
                guard try doc.isDictionary(dict) else { continue }
                if try graphicsStateIsTransparent(try doc.get(dict, "/ExtGState"), doc) { return true }
                if try uses(resources: try doc.get(dict, "/Resources"), doc, &known) { return true }
            }
            for font in try doc.values(of: try doc.get(resources, "/Font")) where try doc.isDictionary(font) {
                // Type 3 glyphs (cairo's colour emoji) draw with resources of their own.
                if try uses(resources: try doc.get(font, "/Resources"), doc, &known) { return true }
            }
            return false
        }
    }

    private static func xobjectUses(_ xobject: QPDFDocument.Handle, _ doc: QPDFDocument, _ known: inout [Int: Bool]) throws -> Bool {
        guard try doc.isStream(xobject) else { return false }
        return try memo(xobject, doc, &known) { known in
            let dict = try doc.streamDictionary(xobject)
            switch try doc.nameValue(try doc.get(dict, "/Subtype")) {
            case "/Image":
                if try doc.has(dict, "/SMask") { return true }
                return try doc.has(dict, "/SMaskInData") && doc.numberValue(try doc.get(dict, "/SMaskInData")) != 0
            case "/Form":
                if try doc.has(dict, "/Group") { return true }
                return try uses(resources: try doc.get(dict, "/Resources"), doc, &known)
            default:
                return false
            }
        }
    }

    private static func graphicsStateIsTransparent(_ state: QPDFDocument.Handle, _ doc: QPDFDocument) throws -> Bool {
        guard try doc.isDictionary(state) else { return false }
        if try doc.has(state, "/SMask"), try doc.nameValue(try doc.get(state, "/SMask")) != "/None" { return true }
        for key in ["/CA", "/ca"] where try doc.has(state, key) {
            if try doc.numberValue(try doc.get(state, key)) < 1 { return true }
        }
        if try doc.has(state, "/BM") {
            let mode = try doc.get(state, "/BM")
            // An array of modes: the first one the reader knows is used; ours all know Normal.
            let first = try doc.isArray(mode) ? try doc.item(mode, 0) : mode
            if let name = try doc.nameValue(first), name != "/Normal", name != "/Compatible" { return true }
        }
        return false
    }

    private static func memo(_ object: QPDFDocument.Handle, _ doc: QPDFDocument, _ known: inout [Int: Bool],
                             _ body: (inout [Int: Bool]) throws -> Bool) throws -> Bool {
        guard let id = try doc.objectID(object) else { return try body(&known) }
        if let answer = known[id] { return answer }
        known[id] = false
        let answer = try body(&known)
        known[id] = answer
        return answer
    }
}

extension QPDFDocument {
    /// The values of a dictionary (empty for anything else), in key order.
    func values(of dictionary: Handle) throws -> [Handle] {
        guard try isDictionary(dictionary) else { return [] }
        var keys: [String] = []
        try call { q in
            qpdf_oh_begin_dict_key_iter(q, dictionary)
            while qpdf_oh_dict_more_keys(q) != 0 {
                if let key = qpdf_oh_dict_next_key(q) { keys.append(String(cString: key)) }
            }
        }
        return try keys.map { try get(dictionary, $0) }
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
