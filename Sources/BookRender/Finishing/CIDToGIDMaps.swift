import Foundation

/// cairo 1.16 writes its TrueType subsets as `CIDFontType2` fonts without `/CIDToGIDMap`, which
/// PDF 32000-1 (Table 117) and PDF/UA (ISO 14289-1, 7.21.3.2) require of an embedded one. A
/// subset numbers its glyphs by CID, so the map is `/Identity`, which readers assume anyway.
enum CIDToGIDMaps {
    /// Adds `/CIDToGIDMap /Identity` to every embedded TrueType CIDFont the pages use, through
    /// their resources and their forms'; a font that has a map keeps it.
    static func addMissing(_ doc: QPDFDocument) throws {
        var seen = Set<Int>()
        for index in 0..<(try doc.pageCount) {
            let page = try doc.page(index)
            if let resources = try doc.inherited(page, "/Resources") { try visit(resources, doc: doc, seen: &seen) }
        }
    }

    /// Each object looked at once (`seen`, by object number): pages share fonts and forms.
    private static func firstVisit(_ object: QPDFDocument.Handle, _ doc: QPDFDocument, _ seen: inout Set<Int>) throws -> Bool {
        guard let id = try doc.objectID(object) else { return true }
        return seen.insert(id).inserted
    }

    private static func visit(_ resources: QPDFDocument.Handle, doc: QPDFDocument, seen: inout Set<Int>) throws {
        guard try doc.isDictionary(resources), try firstVisit(resources, doc, &seen) else { return }
        for font in try doc.values(of: try doc.get(resources, "/Font")) where try firstVisit(font, doc, &seen) {
            guard try doc.isName(try doc.get(font, "/Subtype"), "/Type0") else { continue }
            let descendants = try doc.get(font, "/DescendantFonts")
            guard try doc.isArray(descendants) else { continue }
            for cidFont in try doc.items(descendants) where try doc.isName(try doc.get(cidFont, "/Subtype"), "/CIDFontType2") {
                guard try !doc.has(cidFont, "/CIDToGIDMap"),
                      try doc.has(try doc.get(cidFont, "/FontDescriptor"), "/FontFile2") else { continue }
                try doc.set(cidFont, "/CIDToGIDMap", try doc.name("Identity"))
                // A CIDFont written inside its font is written again with the font.
                if try doc.objectID(cidFont) == nil { try doc.set(font, "/DescendantFonts", descendants) }
            }
        }
        for object in try doc.values(of: try doc.get(resources, "/XObject")) where try doc.isStream(object) {
            let dict = try doc.streamDictionary(object)
            guard try doc.isName(try doc.get(dict, "/Subtype"), "/Form"), try firstVisit(object, doc, &seen) else { continue }
            try visit(try doc.get(dict, "/Resources"), doc: doc, seen: &seen)
        }
    }
}
