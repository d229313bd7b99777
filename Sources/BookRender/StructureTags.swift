import BookLayout

/// The tagged PDF's logical structure: which structure element each item of a page belongs to.
/// cairo writes the elements in drawing order; the finishing step puts them under one `Document`
/// (cairo 1.16 forgets a tag opened before a paint that covers the whole page, such as a cover's
/// background, so a `Document` opened on page 1 would be lost) and adds what cairo cannot write, a
/// figure's `/Alt`, matching figures by their order (`figureAltTexts`).
///
/// cairo 1.16 knows no `Artifact` tag (it fails the surface), so what only dresses or numbers the
/// page (`nil` here) is drawn outside every element, and finishing marks it as an artifact
/// (`ArtifactMarking`).
enum StructureTags {
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
