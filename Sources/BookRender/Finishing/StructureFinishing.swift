import Foundation

/// What a tagged PDF needs beyond what cairo 1.16 writes: one `Document` element over the tree,
/// one element for a paragraph a page break divided, `/MarkInfo`, each figure's alternate text,
/// and the XMP packet in the catalog.
enum StructureFinishing {
    /// Puts the structure tree's top elements under one `Document` element, after joining the
    /// parts of each divided paragraph (`ParagraphJoining`, with `paragraphs` as it takes them),
    /// and marks the catalog as tagged. Nothing for a PDF without a structure tree (untagged, or
    /// through Ghostscript); no new `Document` for one whose tree has a single one at the top.
    /// `sortingByPage`: for pages drawn out of order, the top elements are first put in the order
    /// of the pages (`PageOrder`), after the paragraphs, numbered as drawn, are joined.
    static func wrapInDocument(_ doc: QPDFDocument, joiningParagraphs paragraphs: [Int]?, sortingByPage: Bool = false,
                               input: URL) throws {
        let root = try doc.root()
        let tree = try doc.get(root, "/StructTreeRoot")
        guard try doc.isDictionary(tree) else { return }
        if let paragraphs { try ParagraphJoining.join(paragraphs, in: doc, tree: tree, input: input) }
        if sortingByPage { try PageOrder.sortStructure(doc) }
        let top = try doc.get(tree, "/K")
        let kids = try doc.isArray(top) ? try doc.items(top) : [top]
        let alreadyWrapped = try kids.count == 1 && doc.isDictionary(kids[0]) && doc.isName(try doc.get(kids[0], "/S"), "/Document")
        if !alreadyWrapped, try doc.objectID(tree) != nil {
            // The elements name the root as their parent (`/P`) by its object number: that object
            // becomes the Document element and the root moves to a new one, so that none of a long
            // book's thousands of elements is written again.
            let keys = try doc.keys(tree)
            let moved = try keys.filter { $0 != "/K" }.map { ($0, try doc.get(tree, $0)) }
            let newRoot = try doc.indirect(try doc.dictionary(moved + [("/K", try doc.array([tree]))]))
            for key in keys { try doc.remove(tree, key) }
            try doc.set(tree, "/Type", try doc.name("StructElem"))
            try doc.set(tree, "/S", try doc.name("Document"))
            try doc.set(tree, "/P", newRoot)
            try doc.set(tree, "/K", try doc.array(kids))
            try doc.set(root, "/StructTreeRoot", newRoot)
        } else if !alreadyWrapped {
            let document = try doc.indirect(try doc.dictionary([
                ("/Type", try doc.name("StructElem")), ("/S", try doc.name("Document")), ("/P", tree),
                ("/K", try doc.array(kids)),
            ]))
            for kid in kids where try doc.isDictionary(kid) { try doc.set(kid, "/P", document) }
            try doc.set(tree, "/K", try doc.array([document]))
        }
        try doc.set(root, "/MarkInfo", try doc.dictionary([("/Marked", try doc.boolean(true))]))
    }

    /// Sets `/Alt` on the structure tree's `Figure` elements, taken in the tree's order (depth
    /// first, as the pages drew them). A count that differs from the tree's figures means the
    /// drawing and the plan disagree, which is a bug, not the book's fault.
    static func writeAltTexts(_ alts: [String], into doc: QPDFDocument, input: URL) throws {
        let root = try doc.root()
        let tree = try doc.get(root, "/StructTreeRoot")
        guard try doc.isDictionary(tree) else {
            if alts.isEmpty { return }
            throw FinishingError("\(input.path) has no structure tree for its \(alts.count) figure(s)")
        }
        var figures: [QPDFDocument.Handle] = []
        try collectFigures(try doc.get(tree, "/K"), into: &figures, doc: doc)
        guard figures.count == alts.count else {
            throw FinishingError("\(input.path) has \(figures.count) figure(s) in its structure tree, but \(alts.count) were drawn")
        }
        for (figure, alt) in zip(figures, alts) where !alt.isEmpty {
            try doc.set(figure, "/Alt", try doc.text(alt))
        }
    }

    private static func collectFigures(_ kids: QPDFDocument.Handle, into figures: inout [QPDFDocument.Handle], doc: QPDFDocument) throws {
        if try doc.isArray(kids) {
            for kid in try doc.items(kids) { try collectFigures(kid, into: &figures, doc: doc) }
            return
        }
        // Marked-content references are integers or `/MCR` dictionaries; only elements have `/S`.
        guard try doc.isDictionary(kids), try doc.has(kids, "/S") else { return }
        let type = try doc.get(kids, "/S")
        if try doc.isName(type, "/Figure") { figures.append(kids) }
        // A paragraph holds marked content only (`StructureTags` opens no element inside one).
        if try doc.isName(type, "/P") { return }
        try collectFigures(try doc.get(kids, "/K"), into: &figures, doc: doc)
    }

    /// The catalog's `/Metadata`: one XMP stream, uncompressed as PDF readers expect to find it.
    static func writeMetadata(_ metadata: XMPMetadata, into doc: QPDFDocument) throws {
        let packet = Data(metadata.packet.utf8)
        let stream = try doc.indirect(try doc.stream(data: packet, dictionary: [
            ("/Type", try doc.name("Metadata")), ("/Subtype", try doc.name("XML")), ("/Length", try doc.integer(packet.count)),
        ]))
        try doc.set(try doc.root(), "/Metadata", stream)
    }
}
