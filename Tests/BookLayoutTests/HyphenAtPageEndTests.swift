import Testing
@testable import BookLayout

/// A page does not end on a word split by a hyphen when moving its break a line earlier is legal.
@Suite struct HyphenAtPageEndTests {
    /// `lines` with the lines at `indices` ending on a hyphen.
    func hyphenated(_ lines: [TextLine], at indices: Set<Int>) -> [TextLine] {
        lines.enumerated().map { i, l in
            TextLine(byteRange: l.byteRange, text: l.text, top: l.top, baseline: l.baseline, height: l.height, width: l.width,
                     x: l.x, paragraph: l.paragraph, indexInParagraph: l.indexInParagraph,
                     paragraphLineCount: l.paragraphLineCount, endsWithSoftHyphen: indices.contains(i))
        }
    }

    @Test func aPageEndsALineEarlierRatherThanOnAHyphen() {
        // Four lines fit a page; the fourth ends on a hyphen.
        let plain = makeLines([10])
        #expect(Paginator.paginate(lines: plain, pageHeights: { _ in 48 }) == [0..<4, 4..<8, 8..<10])
        let lines = hyphenated(plain, at: [3])
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 48 })
        #expect(pages == [0..<3, 3..<7, 7..<10])
        expectWellFormed(pages, lines, { _ in 48 })
    }

    @Test func theHyphenStaysWhenMovingTheBreakWouldLeaveAnOrphan() {
        // Moving the first page's break a line earlier would leave one line of the second paragraph on it.
        let lines = hyphenated(makeLines([3, 6]), at: [4])
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 60 })
        #expect(pages == [0..<5, 5..<9])
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
    }

    @Test func theHyphenStaysWhenTheLineBeforeEndsOnOneToo() {
        let lines = hyphenated(makeLines([10]), at: [2, 3])
        #expect(Paginator.paginate(lines: lines, pageHeights: { _ in 48 }) == [0..<4, 4..<8, 8..<10])
    }

    @Test func facingPagesEndTogetherAndOffAHyphen() {
        // Page 2 faces page 1. Greedily both take four lines, the second ending on a hyphen: the
        // pair moves both breaks so that they still end on the same line.
        let plain = makeLines([12])
        let faces: (Int) -> Bool = { $0 == 1 }
        #expect(Paginator.paginate(lines: plain, pageHeights: { _ in 48 }, facesPrevious: faces) == [0..<4, 4..<8, 8..<12])
        let lines = hyphenated(plain, at: [7])
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 48 }, facesPrevious: faces)
        #expect(pages == [0..<3, 3..<6, 6..<10, 10..<12])
        expectWellFormed(pages, lines, { _ in 48 })
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
    }
}
