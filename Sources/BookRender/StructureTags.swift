import BookLayout

/// The tagged PDF's logical structure: which structure element each item of a page belongs to.
/// cairo writes the elements in drawing order; the finishing step puts them under one `Document`
/// (cairo 1.16 forgets a tag opened before a paint that covers the whole page, such as a cover's
/// background, so a `Document` opened on page 1 would be lost) and adds what cairo cannot write, a
/// figure's `/Alt`, matching figures by their order (`figureAltTexts`), and one element for a
/// paragraph a page break divides (`ParagraphNumbers`).
///
/// cairo 1.16 knows no `Artifact` tag (it fails the surface), so what only dresses or numbers the
/// page (`nil` here) is drawn outside every element, and finishing marks it as an artifact
/// (`ArtifactMarking`).
enum StructureTags {
    /// The element of an item; a chapter's heading is `H1` here, one level below the book's title
    /// where that comes first (`HeadingLevels`). A box of body text is one `P` per paragraph
    /// (`paragraphs(of:)`).
    static func element(for item: PageItem) -> String? {
        switch item {
        case .text(let t):
            guard t.isBookText else { return nil }
            switch t.structure {
            case .title, .heading: return "H1"
            case .paragraph: return "P"
            case .caption: return "Caption"
            case .artifact: return nil
            }
        case .image: return "Figure"
        case .fill, .rule, .qr, .placeholderArt, .registration: return nil
        }
    }

    /// The headings' levels as a document's pages are drawn: the book's title is `H1` and a
    /// chapter's heading `H2` below it, or `H1` while no title came before it (a few pages without
    /// the cover), so levels never skip and the first heading is always `H1` (ISO 14289-1, 7.4.2).
    struct HeadingLevels {
        private var sawTitle = false

        mutating func element(for box: TextBox) -> String {
            if box.structure == .title { sawTitle = true }
            return box.structure == .heading && sawTitle ? "H2" : "H1"
        }
    }

    /// The lines of a box of body text that make one `P` element each: each paragraph's lines on
    /// the box, in order.
    static func paragraphs(of box: TextBox) -> [Range<Int>] {
        let lines = box.layout.lines
        var parts: [Range<Int>] = []
        var start = box.lines.lowerBound
        for i in box.lines.dropFirst() where lines[i].paragraph != lines[i - 1].paragraph {
            parts.append(start..<i)
            start = i
        }
        if !box.lines.isEmpty { parts.append(start..<box.lines.upperBound) }
        return parts
    }

    /// Each `P` element's paragraph, counted as the pages are drawn (the structure tree's order):
    /// the index of the element that holds the paragraph's first part, its own for a first part.
    /// Elements that share one hold the parts of a paragraph a page break divided, which finishing
    /// makes one element (`FinishingPlan.paragraphs`). Counted while drawing, because a streamed
    /// export drops each page's text once it is drawn.
    struct ParagraphNumbers {
        private(set) var numbers: [Int] = []
        /// Where each paragraph of the previous page and this one stopped: its number, the line
        /// after its last, and the page. The layout is held so that its identity stays its own.
        private var open: [ObjectIdentifier: (layout: TextLayout, paragraph: Int, number: Int, end: Int, page: Int)] = [:]
        private var page = 0

        /// A new page: a paragraph continues onto the page after its part, no further.
        mutating func startPage() {
            page += 1
            open = open.filter { $0.value.page >= page - 1 }
        }

        /// The element about to be drawn for `part` of `box`'s lines.
        mutating func add(_ box: TextBox, part: Range<Int>) {
            let paragraph = box.layout.lines[part.lowerBound].paragraph
            let key = ObjectIdentifier(box.layout)
            var number = numbers.count
            if let last = open[key], last.paragraph == paragraph, last.end == part.lowerBound { number = last.number }
            open[key] = (box.layout, paragraph, number, part.upperBound, page)
            numbers.append(number)
        }
    }

    /// Each figure's alternate text, in the order the pages draw them (the order of the
    /// structure tree's `Figure` elements); an empty string for a picture that has none.
    static func figureAltTexts(_ tree: PageTree, pages: Set<Int>?) -> [String] {
        tree.pages.filter { pages?.contains($0.number) ?? true }.flatMap { page in
            page.items.compactMap { item -> String? in
                guard case .image(let box) = item, element(for: item) == "Figure" else { return nil }
                return box.altText ?? ""
            }
        }
    }
}
