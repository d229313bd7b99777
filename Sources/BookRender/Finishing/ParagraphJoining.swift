import Foundation
import CQPDF

/// Makes the parts of a paragraph that a page break divided one `P` element. cairo 1.16 ends every
/// element at the end of its page, so each part comes out as an element of its own, which a reader
/// of the tags takes for two paragraphs. The first part's element keeps its place in the tree and
/// takes the later parts' marked content as marked-content references to their pages (`/MCR` with
/// `/Pg`, PDF 32000-1 §14.7.4.2); the parent tree then names that element for their content, and
/// the later elements leave the tree.
enum ParagraphJoining {
    /// `numbers`: for each `P` element in the tree's order (depth first, as the pages drew them),
    /// the index of the element holding the paragraph's first part, its own index for a first part
    /// (`StructureTags.paragraphNumbers`). A count that differs from the tree's `P` elements means
    /// the drawing and the plan disagree, which is a bug, not the book's fault.
    static func join(_ numbers: [Int], in doc: QPDFDocument, tree: QPDFDocument.Handle, input: URL) throws {
        var paragraphs: [(element: QPDFDocument.Handle, parent: QPDFDocument.Handle)] = []
        try collect(try doc.get(tree, "/K"), parent: tree, into: &paragraphs, doc: doc)
        guard paragraphs.count == numbers.count else {
            throw FinishingError("\(input.path) has \(paragraphs.count) paragraph element(s) in its structure tree, but \(numbers.count) were drawn")
        }
        guard numbers.enumerated().contains(where: { $0.offset != $0.element }) else { return }

        var parentTree = try ParentTree(try doc.get(tree, "/ParentTree"), doc: doc)
        /// Elements that left the tree, by their parents' object numbers.
        var joined: [Int: (parent: QPDFDocument.Handle, elements: Set<Int>)] = [:]
        for (index, first) in numbers.enumerated() where first != index {
            guard first < index else {
                throw FinishingError("\(input.path): paragraph element \(index + 1) continues element \(first + 1), which comes after it")
            }
            let (part, parent) = paragraphs[index]
            let target = paragraphs[first].element
            try moveContent(of: part, to: target, parentTree: &parentTree, doc: doc, input: input)
            guard let partID = try doc.objectID(part), let parentID = try doc.objectID(parent) else {
                throw FinishingError("\(input.path): a paragraph element or its parent is not an indirect object")
            }
            joined[parentID, default: (parent, [])].elements.insert(partID)
        }
        for (parent, elements) in joined.values {
            let kids = try doc.get(parent, "/K")
            let kept = try (doc.isArray(kids) ? doc.items(kids) : [kids]).filter { kid in
                try doc.objectID(kid).map { !elements.contains($0) } ?? true
            }
            try doc.set(parent, "/K", try doc.array(kept))
        }
    }

    /// The `P` elements under `kids` (an element's `/K`), depth first, each with its parent.
    private static func collect(_ kids: QPDFDocument.Handle, parent: QPDFDocument.Handle,
                                into found: inout [(element: QPDFDocument.Handle, parent: QPDFDocument.Handle)], doc: QPDFDocument) throws {
        // Asked in the order of how often they hold: nearly every kid is an element.
        if try doc.isDictionary(kids) {
            // Marked-content references are integers or `/MCR` dictionaries; only elements have
            // `/S`. A paragraph holds marked content only (`StructureTags` opens no element inside
            // one): its content is not read, which for a long book was most of this.
            let type = try doc.get(kids, "/S")
            if try doc.isName(type, "/P") {
                found.append((kids, parent))
            } else if try !doc.isNull(type) {
                try collect(try doc.get(kids, "/K"), parent: kids, into: &found, doc: doc)
            }
        } else if try doc.isArray(kids) {
            for kid in try doc.items(kids) { try collect(kid, parent: parent, into: &found, doc: doc) }
        }
    }

    /// Appends `part`'s content to `target`'s `/K`, each marked-content sequence as a reference
    /// that names its page, and points the parent tree's entries for it at `target`.
    private static func moveContent(of part: QPDFDocument.Handle, to target: QPDFDocument.Handle,
                                    parentTree: inout ParentTree, doc: QPDFDocument, input: URL) throws {
        let page = try doc.get(part, "/Pg")
        let partKids = try doc.get(part, "/K")
        var moved: [QPDFDocument.Handle] = []
        for kid in try doc.isArray(partKids) ? doc.items(partKids) : [partKids] {
            if try doc.isInteger(kid) {
                guard try doc.isDictionary(page) else {
                    throw FinishingError("\(input.path): a paragraph element's marked content names no page")
                }
                try parentTree.point(page: page, mcid: try doc.intValue(kid), at: target)
                moved.append(try doc.dictionary([("/Type", try doc.name("MCR")), ("/Pg", page), ("/MCID", kid)]))
            } else if try doc.isDictionary(kid) {
                if try doc.has(kid, "/S") {
                    try doc.set(kid, "/P", target)
                } else if try !doc.has(kid, "/Pg") {
                    try doc.set(kid, "/Pg", page)
                }
                if try doc.isName(try doc.get(kid, "/Type"), "/MCR") {
                    try parentTree.point(page: try doc.get(kid, "/Pg"), mcid: try doc.intValue(try doc.get(kid, "/MCID")), at: target)
                }
                moved.append(kid)
            }
        }
        let targetKids = try doc.get(target, "/K")
        var kids = try doc.isArray(targetKids) ? doc.items(targetKids) : try doc.isNull(targetKids) ? [] : [targetKids]
        kids += moved
        try doc.set(target, "/K", try doc.array(kids))
    }

    /// The structure tree's `/ParentTree`: for each page (by its `/StructParents`), the array of
    /// the elements its marked-content sequences belong to, indexed by MCID. Read whole the first
    /// time it is needed.
    private struct ParentTree {
        let root: QPDFDocument.Handle
        let doc: QPDFDocument
        /// Each key's value and the indirect object that holds it.
        private var entries: [Int: (value: QPDFDocument.Handle, owner: QPDFDocument.Handle)]?

        init(_ root: QPDFDocument.Handle, doc: QPDFDocument) throws {
            self.root = root
            self.doc = doc
        }

        /// Makes `page`'s marked-content sequence `mcid` belong to `element`; nothing when the
        /// tree has no entry for it.
        mutating func point(page: QPDFDocument.Handle, mcid: Int, at element: QPDFDocument.Handle) throws {
            let key = try doc.get(page, "/StructParents")
            guard try doc.isInteger(key) else { return }
            if entries == nil {
                var found: [Int: (QPDFDocument.Handle, QPDFDocument.Handle)] = [:]
                try read(root, owner: root, into: &found)
                entries = found
            }
            guard let entry = entries?[try doc.intValue(key)], try doc.isArray(entry.value) else { return }
            let count = Int(try doc.call { qpdf_oh_get_array_n_items($0, entry.value) })
            guard mcid >= 0, mcid < count else { return }
            try doc.setItem(entry.value, mcid, element, owner: try doc.objectID(entry.value) == nil ? entry.owner : entry.value)
        }

        /// A number-tree node's entries (`/Nums`) and its children's (`/Kids`), PDF 32000-1 §7.9.7.
        private func read(_ node: QPDFDocument.Handle, owner: QPDFDocument.Handle,
                          into found: inout [Int: (QPDFDocument.Handle, QPDFDocument.Handle)]) throws {
            guard try doc.isDictionary(node) else { return }
            let holder = try doc.objectID(node) == nil ? owner : node
            let nums = try doc.get(node, "/Nums")
            if try doc.isArray(nums) {
                let items = try doc.items(nums)
                for i in stride(from: 0, to: items.count - 1, by: 2) where try doc.isInteger(items[i]) {
                    found[try doc.intValue(items[i])] = (items[i + 1], holder)
                }
            }
            let kids = try doc.get(node, "/Kids")
            if try doc.isArray(kids) {
                for kid in try doc.items(kids) { try read(kid, owner: holder, into: &found) }
            }
        }
    }
}
