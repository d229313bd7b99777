/// Splits the lines of one TextLayout into pages.
public enum Paginator {
    /// Line bottoms may exceed a page by this much (points) to absorb rounding in Pango units.
    static let tolerance = 1e-6

    /// How far apart, as a share of the shorter of the two last lines, the last baselines of two
    /// facing pages may be and still count as the same line: enough for rounding and for a
    /// fallback font's slightly different pitch, far too little to mistake a neighbouring line.
    static let sameLineShare = 0.25

    /// How many lines short of full a left-hand page may end so that it and its facing page end together.
    static let linesGivenToFacingPage = 2

    /// Page `i` of the result holds `lines[result[i]]`. Each page is filled greedily (heights are
    /// measured from the top of the page's first line), then its break is moved earlier until no
    /// page ends with fewer than `minimumLines` lines of a paragraph that continues (an orphan)
    /// and the next page does not start with fewer than `minimumLines` lines of a paragraph that
    /// began before it (a widow). A paragraph too short to split that way moves whole to the next
    /// page. When no earlier break on the page satisfies the rule (a page that holds fewer than
    /// 2 × `minimumLines` lines of one paragraph), the greedy break stands. A page that would
    /// end on a word split by a hyphen ends a line earlier when that is a legal break that splits
    /// no word (TeX's broken penalty, as a rule).
    ///
    /// `facesPrevious(i)`: page `i` is the right-hand page of a spread whose left-hand page is page
    /// `i - 1`, both full text pages of this flow. The two pages of such a spread end on the same
    /// line (their last baselines equally far below their first lines' tops) when legal breaks
    /// allow it: a right-hand page ends as short as its facing page had to, or the left-hand page
    /// gives it one or two lines, preferring a pair of breaks that splits no word over the page
    /// turn. The last page of the flow is never shortened to match, and
    /// when no legal pair of breaks ends the two pages together, the greedy breaks stand.
    ///
    /// Every line lands on exactly one page, in order. No line's bottom exceeds its page height,
    /// except a line taller than its page, which is put alone on a page. `lines` may start in the
    /// middle of a paragraph (the rest of a text that began on an earlier page).
    public static func paginate(lines: [TextLine], pageHeights: (Int) -> Double, minimumLines: Int = 2,
                                facesPrevious: (Int) -> Bool = { _ in false }) -> [Range<Int>] {
        var pages: [Range<Int>] = []
        var start = 0
        let minimum = max(1, minimumLines)
        while start < lines.count {
            let verso = pages.count
            let end = pageEnd(lines, from: start, height: pageHeights(verso), minimum: minimum)
            if end < lines.count, facesPrevious(verso + 1),
               let spread = matchedSpread(lines, from: start, greedyEnd: end, versoHeight: pageHeights(verso),
                                          rectoHeight: pageHeights(verso + 1), minimum: minimum) {
                pages.append(start..<spread.verso)
                pages.append(spread.verso..<spread.recto)
                start = spread.recto
                continue
            }
            pages.append(start..<end)
            start = end
        }
        return pages.count > 1 ? withoutRunt(pages, lines: lines, pageHeights: pageHeights, minimum: minimum,
                                             facesPrevious: facesPrevious) : pages
    }

    /// The fewest lines the last page of a flow of several pages may hold: a page with a line or
    /// three before the next chapter reads as a mistake.
    static let fewestOnLastPage = 4

    /// The pages with lines pushed onto a last page that held fewer than `fewestOnLastPage`: the
    /// page before it ends that many lines earlier at a legal break, and when that page faces the
    /// one before it, that one ends as much earlier too, so the spread still ends on one line.
    /// Unchanged when no legal break allows it or the page before would keep too little.
    static func withoutRunt(_ pages: [Range<Int>], lines: [TextLine], pageHeights: (Int) -> Double, minimum: Int,
                            facesPrevious: (Int) -> Bool) -> [Range<Int>] {
        let last = pages.count - 1
        let short = fewestOnLastPage - pages[last].count
        guard short > 0 else { return pages }
        let before = pages[last - 1]
        // The page given up must keep the larger part of itself.
        let fewestKept = max(fewestOnLastPage, before.count / 2)
        func fitsLast(from start: Int) -> Bool {
            lines[lines.count - 1].bottom - lines[start].top <= pageHeights(last) + tolerance
        }
        for give in short...(short + 2) {
            let end = before.upperBound - give
            guard end - before.lowerBound >= fewestKept, fitsLast(from: end),
                  isLegalBreak(lines, pageStart: before.lowerBound, at: end, minimum: minimum) else { continue }
            var result = pages
            result[last - 1] = before.lowerBound..<end
            result[last] = end..<lines.count
            // A spread that ended on one line keeps doing so: its left-hand page ends earlier too.
            if last >= 2, facesPrevious(last - 1), endTogether(lines, verso: pages[last - 2], recto: before) {
                let verso = pages[last - 2]
                for versoEnd in stride(from: verso.upperBound - 1, through: verso.lowerBound + fewestKept, by: -1) {
                    guard isLegalBreak(lines, pageStart: verso.lowerBound, at: versoEnd, minimum: minimum) else { continue }
                    let recto = versoEnd..<end
                    guard lines[end - 1].bottom - lines[versoEnd].top <= pageHeights(last - 1) + tolerance else { break }
                    if endTogether(lines, verso: verso.lowerBound..<versoEnd, recto: recto) {
                        result[last - 2] = verso.lowerBound..<versoEnd
                        result[last - 1] = recto
                        break
                    }
                    if depth(lines, recto) > depth(lines, verso.lowerBound..<versoEnd) + lines[versoEnd].height { break }
                }
            }
            return result
        }
        return pages
    }

    /// Where a page that starts at `start` ends: filled greedily, then moved earlier to the
    /// nearest legal break if there is one.
    static func pageEnd(_ lines: [TextLine], from start: Int, height: Double, minimum: Int) -> Int {
        let end = fullEnd(lines, from: start, height: height)
        guard end < lines.count else { return end }
        var candidate = end
        while candidate > start && !isLegalBreak(lines, pageStart: start, at: candidate, minimum: minimum) {
            candidate -= 1
        }
        guard candidate > start else { return end }
        // A word split over the page turn is read with the page turned in between: the page ends
        // a line earlier where that break is legal too and does not split a word itself.
        let earlier = candidate - 1
        if endsHyphenated(lines, at: candidate), earlier > start, !endsHyphenated(lines, at: earlier),
           isLegalBreak(lines, pageStart: start, at: earlier, minimum: minimum) {
            return earlier
        }
        return candidate
    }

    /// Whether a page that ends just before line `index` ends on a word split by a hyphen, to be
    /// finished on the next page.
    static func endsHyphenated(_ lines: [TextLine], at index: Int) -> Bool {
        index > 0 && index < lines.count && lines[index - 1].endsWithSoftHyphen
    }

    /// The end of the most lines from `start` whose bottoms fit in `height`; at least one line.
    static func fullEnd(_ lines: [TextLine], from start: Int, height: Double) -> Int {
        let origin = lines[start].top
        var end = start + 1
        while end < lines.count && lines[end].bottom - origin <= height + tolerance { end += 1 }
        return end
    }

    /// Breaks for a left-hand page from `start` and the right-hand page facing it that end both
    /// on the same line, or nil when the greedy breaks already do, when the right-hand page would
    /// be the flow's last, or when no legal pair does. The left-hand page keeps as many lines as
    /// it can: its greedy end first, then down to two lines fewer than fill it.
    static func matchedSpread(_ lines: [TextLine], from start: Int, greedyEnd: Int, versoHeight: Double,
                              rectoHeight: Double, minimum: Int) -> (verso: Int, recto: Int)? {
        let greedyRecto = pageEnd(lines, from: greedyEnd, height: rectoHeight, minimum: minimum)
        guard greedyRecto < lines.count,
              !endTogether(lines, verso: start..<greedyEnd, recto: greedyEnd..<greedyRecto) else { return nil }
        // A left-hand page already short for the paragraph rules gives nothing more away.
        let full = fullEnd(lines, from: start, height: versoHeight)
        let fewest = max(start + 1, min(greedyEnd, full - linesGivenToFacingPage))
        // A pair where neither page ends on a split word first; failing that, any pair.
        for splitWords in [false, true] {
            for versoEnd in stride(from: greedyEnd, through: fewest, by: -1) {
                guard versoEnd == greedyEnd || isLegalBreak(lines, pageStart: start, at: versoEnd, minimum: minimum) else { continue }
                guard splitWords || !endsHyphenated(lines, at: versoEnd) else { continue }
                let target = depth(lines, start..<versoEnd)
                let rectoFull = fullEnd(lines, from: versoEnd, height: rectoHeight)
                for rectoEnd in stride(from: rectoFull, to: versoEnd, by: -1) where rectoEnd < lines.count {
                    // A line taller than the page stands alone on it; it is no line to match.
                    guard lines[rectoEnd - 1].bottom - lines[versoEnd].top <= rectoHeight + tolerance else { continue }
                    guard isLegalBreak(lines, pageStart: versoEnd, at: rectoEnd, minimum: minimum) else { continue }
                    if endTogether(lines, verso: start..<versoEnd, recto: versoEnd..<rectoEnd),
                       splitWords || !endsHyphenated(lines, at: rectoEnd) {
                        return (versoEnd, rectoEnd)
                    }
                    // Shorter right-hand pages only end higher still.
                    if depth(lines, versoEnd..<rectoEnd) < target { break }
                }
            }
        }
        return nil
    }

    /// How far the last baseline of `page` sits below its first line's top. Baselines, not line
    /// bottoms: a paragraph's spacing lies below its last baseline, inside its last line's box,
    /// and leaves no ink there, so the eye reads a page's end at its last baseline.
    static func depth(_ lines: [TextLine], _ page: Range<Int>) -> Double {
        lines[page.upperBound - 1].baseline - lines[page.lowerBound].top
    }

    /// Whether two facing pages end on the same line.
    static func endTogether(_ lines: [TextLine], verso: Range<Int>, recto: Range<Int>) -> Bool {
        let share = min(lines[verso.upperBound - 1].height, lines[recto.upperBound - 1].height) * sameLineShare
        return abs(depth(lines, verso) - depth(lines, recto)) <= share
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
