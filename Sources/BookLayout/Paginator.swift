/// Splits the lines of one TextLayout into pages.
public enum Paginator {
    /// Line bottoms may exceed a page by this much (points) to absorb rounding in Pango units.
    static let tolerance = 1e-6

    /// Page `i` of the result holds `lines[result[i]]`. Each page is filled greedily (heights are
    /// measured from the top of the page's first line), then its break is moved earlier until no
    /// page ends with fewer than `minimumLines` lines of a paragraph that continues (an orphan)
    /// and the next page does not start with fewer than `minimumLines` lines of a paragraph that
    /// began before it (a widow). A paragraph too short to split that way moves whole to the next
    /// page. When no earlier break on the page satisfies the rule (a page that holds fewer than
    /// 2 × `minimumLines` lines of one paragraph), the greedy break stands.
    ///
    /// Every line lands on exactly one page, in order. No line's bottom exceeds its page height,
    /// except a line taller than its page, which is put alone on a page. `lines` may start in the
    /// middle of a paragraph (the rest of a text that began on an earlier page).
    public static func paginate(lines: [TextLine], pageHeights: (Int) -> Double, minimumLines: Int = 2) -> [Range<Int>] {
        var pages: [Range<Int>] = []
        var start = 0
        let minimum = max(1, minimumLines)
        while start < lines.count {
            let height = pageHeights(pages.count)
            let origin = lines[start].top
            var end = start + 1
            while end < lines.count && lines[end].bottom - origin <= height + tolerance { end += 1 }
            if end < lines.count {
                var candidate = end
                while candidate > start && !isLegalBreak(lines, pageStart: start, at: candidate, minimum: minimum) {
                    candidate -= 1
                }
                if candidate > start { end = candidate }
            }
            pages.append(start..<end)
            start = end
        }
        return pages
    }

    /// Whether a page that starts at `pageStart` may end just before line `index`.
    static func isLegalBreak(_ lines: [TextLine], pageStart: Int, at index: Int, minimum: Int) -> Bool {
        guard index < lines.count, index > 0 else { return true }
        let last = lines[index - 1], next = lines[index]
        guard last.paragraph == next.paragraph else { return true }
        // Lines of this paragraph on this page: those since its start, or since the page's top.
        let before = min(last.indexInParagraph + 1, index - pageStart)
        let after = next.paragraphLineCount - next.indexInParagraph
        return before >= minimum && after >= minimum
    }
}
