import BookModel
import BookResolve

/// Plans a picture book's pages as a whole, where a page's layout depends on the pages after it.
/// A spread must open on a left page, and so must a picture whose words face it; the pages before
/// such an entry decide which side it lands on. Laid out once, the book shows where a blank page
/// had to go; the planner then makes an earlier picture on a left page give its words a facing page
/// of their own (one page more, so the spread lands on the left with nothing blank), or, where no
/// picture can, puts a designed page (the book's vignette) in place of the blank. Then it makes the
/// bands and veils of facing pages equally tall. Each revision is laid out again until nothing
/// changes; the picture book's few dozen pages make that cheap.
enum PagePlanner {
    /// Revisions tried at most: each fixes one place, and the last ones only even out heights.
    static let rounds = 8

    /// Whether the book has entries whose side depends on the pages before them.
    static func needsPlanning(_ book: ResolvedBook) -> Bool {
        book.pages.contains { page in
            switch page.page.content {
            case .spread, .illustration: return true
            default: return false
            }
        }
    }

    /// The plan improved after laying the book out with `plan`, or nil when it holds.
    static func revise(_ plan: LayoutPlan, after tree: PageTree, book: ResolvedBook) -> LayoutPlan? {
        if let revised = removeBlank(plan, tree, book) { return revised }
        return evenHeights(plan, tree)
    }

    /// The first blank page put in so an entry opens on the left, made unnecessary.
    private static func removeBlank(_ plan: LayoutPlan, _ tree: PageTree, _ book: ResolvedBook) -> LayoutPlan? {
        guard let blank = tree.pages.firstIndex(where: { $0.role == .blank && $0.insertedFor != nil }),
              let entry = tree.pages[blank].insertedFor else { return nil }
        var plan = plan
        // A picture on a left page since the last page whose side is fixed (a spread, a picture with
        // facing words, a recto opening) can take a facing page for its words: every page after it
        // moves one on, and nothing between them minds which side it is on.
        // Of those, the one with the most words: they fill a page of their own best.
        var best: (source: Int, words: Int)?
        var k = blank - 1
        while k >= 0 {
            let page = tree.pages[k]
            if page.role == .spreadLeft || page.role == .spreadRight || page.role == .blank || page.role == .designed
                || page.role == .chapter || page.role == .cover { break }
            if let source = page.sourcePage, page.role == .illustration, page.number % 2 == 0,
               plan.arrangements[source] == nil, tree.pages.filter({ $0.sourcePage == source }).count == 1 {
                let words = wordCount(book.pages[source])
                if words > 0, words > best?.words ?? 0 { best = (source, words) }
            }
            // A page whose words already face it, or that follows one, is held where it is.
            if page.role == .text, k > 0, tree.pages[k - 1].role == .illustration,
               tree.pages[k - 1].sourcePage == page.sourcePage { break }
            k -= 1
        }
        if let best {
            plan.arrangements[best.source] = .facingText
            return plan
        }
        guard !plan.designedPages.contains(entry) else { return nil }
        plan.designedPages.insert(entry)
        return plan
    }

    private static func wordCount(_ page: ResolvedPage) -> Int {
        guard case .illustration(let p) = page.page.content else { return 0 }
        return ((p.text ?? "") + " " + (p.caption ?? "")).split(whereSeparator: \.isWhitespace).count
    }

    /// Facing pages whose bands or veiled blocks differ in height are given the taller one's.
    private static func evenHeights(_ plan: LayoutPlan, _ tree: PageTree) -> LayoutPlan? {
        var plan = plan, changed = false
        for i in tree.pages.indices.dropLast() where tree.pages[i].number % 2 == 0 {
            let left = tree.pages[i], right = tree.pages[i + 1]
            guard let a = left.art.first, let b = right.art.first, let ha = a.textBlockHeight, let hb = b.textBlockHeight,
                  a.textBacking == b.textBacking, a.textPosition == b.textPosition,
                  let sa = left.sourcePage, let sb = right.sourcePage, abs(ha - hb) > 0.5 else { continue }
            let height = max(ha, hb)
            for source in [sa, sb] where (plan.blockHeights[source] ?? 0) < height - 0.01 {
                plan.blockHeights[source] = height
                changed = true
            }
        }
        return changed ? plan : nil
    }
}
