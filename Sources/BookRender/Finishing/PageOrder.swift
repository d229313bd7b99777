import Foundation

/// Puts the pages of a PDF drawn out of order (`FinishingPlan.drawnOrder`) in the book's order:
/// the page tree's `/Kids`, and the structure tree's top elements, so that a reader reads the
/// contents where they are printed, not where they were drawn.
enum PageOrder {
    /// `order[i]`: the drawn index of the book's page `i`. cairo writes one flat `/Pages` node.
    static func apply(_ order: [Int], to doc: QPDFDocument, input: URL) throws {
        let pages = try doc.get(try doc.root(), "/Pages")
        let kids = try doc.items(try doc.get(pages, "/Kids"))
        guard kids.count == order.count, Set(order) == Set(kids.indices) else {
            throw FinishingError("\(input.path) has \(kids.count) page(s) at the top of its page tree, but the book's order names \(order.count)")
        }
        for kid in kids where try !doc.isName(try doc.get(kid, "/Type"), "/Page") {
            throw FinishingError("\(input.path) has a nested page tree; its pages cannot be put in order")
        }
        try doc.set(pages, "/Kids", try doc.array(order.map { kids[$0] }))
        try doc.updatePageCache()
    }

    /// Sorts the structure tree's top elements by the first page each marks, keeping the drawn
    /// order among elements of one page (and an element with no page after the one before it).
    static func sortStructure(_ doc: QPDFDocument) throws {
        let tree = try doc.get(try doc.root(), "/StructTreeRoot")
        guard try doc.isDictionary(tree) else { return }
        let top = try doc.get(tree, "/K")
        guard try doc.isArray(top) else { return }
        var position: [Int: Int] = [:]
        for i in 0..<(try doc.pageCount) {
            if let id = try doc.objectID(try doc.page(i)) { position[id] = i }
        }
        let kids = try doc.items(top)
        var keys: [Int] = []
        for kid in kids {
            keys.append(try firstPage(of: kid, in: doc).flatMap { position[$0] } ?? keys.last ?? 0)
        }
        let sorted = kids.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
        guard sorted != Array(kids.indices) else { return }
        try doc.set(tree, "/K", try doc.array(sorted.map { kids[$0] }))
    }

    /// The object number of the first page an element marks content on, depth first.
    private static func firstPage(of element: QPDFDocument.Handle, in doc: QPDFDocument) throws -> Int? {
        if try doc.isArray(element) {
            for kid in try doc.items(element) { if let page = try firstPage(of: kid, in: doc) { return page } }
            return nil
        }
        guard try doc.isDictionary(element) else { return nil }
        if try doc.has(element, "/Pg"), let id = try doc.objectID(try doc.get(element, "/Pg")) { return id }
        return try doc.has(element, "/K") ? try firstPage(of: try doc.get(element, "/K"), in: doc) : nil
    }
}
