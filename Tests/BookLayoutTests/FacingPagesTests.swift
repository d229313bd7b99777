import Testing
@testable import BookLayout

/// The two pages of a spread end on the same line where the widow and orphan rules allow it.
/// Pages here hold ten 12-point lines; pages 1, 3, 5… are right-hand pages facing the page before.
@Suite struct FacingPagesTests {
    let height: (Int) -> Double = { _ in 120 }
    let spreads: (Int) -> Bool = { $0 % 2 == 1 }

    func depth(_ lines: [TextLine], _ page: Range<Int>) -> Double {
        lines[page.upperBound - 1].baseline - lines[page.lowerBound].top
    }

    @Test func aLeftPageShortForAnOrphanShortensItsFacingPage() {
        // Paragraph 1 would start with one line at the foot of page 0, so page 0 holds nine lines;
        // page 1 could hold ten (a 6 + 4 split of paragraph 2) but ends after nine, at a 5 + 5 split.
        let lines = makeLines([9, 4, 10, 10])
        #expect(Array(Paginator.paginate(lines: lines, pageHeights: height).prefix(2)) == [0..<9, 9..<19])
        let pages = Paginator.paginate(lines: lines, pageHeights: height, facesPrevious: spreads)
        #expect(Array(pages.prefix(2)) == [0..<9, 9..<18])
        #expect(depth(lines, pages[0]) == depth(lines, pages[1]))
        expectWellFormed(pages, lines, height)
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
    }

    @Test func aRightPageThatCannotFillTakesALineFromItsFacingPage() {
        // Page 1 cannot end after ten lines (one line of paragraph 1 would be left over): greedy
        // leaves it a line short of the full page 0. Page 0 gives a line and both end after nine.
        let lines = makeLines([12, 9, 20])
        #expect(Array(Paginator.paginate(lines: lines, pageHeights: height).prefix(2)) == [0..<10, 10..<19])
        let pages = Paginator.paginate(lines: lines, pageHeights: height, facesPrevious: spreads)
        #expect(Array(pages.prefix(2)) == [0..<9, 9..<18])
        expectWellFormed(pages, lines, height)
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
    }

    @Test func withNoLegalMatchTheGreedyBreaksStand() {
        // Page 0 holds nine lines (an orphan would follow); page 1 could end after nine lines only
        // by leaving one line of paragraph 2, and page 0 cannot end after eight (one line of
        // paragraph 0 would be left). Nothing legal ends both pages together.
        let lines = makeLines([9, 5, 5, 20])
        let greedy = Paginator.paginate(lines: lines, pageHeights: height)
        #expect(Array(greedy.prefix(2)) == [0..<9, 9..<19])
        #expect(Paginator.paginate(lines: lines, pageHeights: height, facesPrevious: spreads) == greedy)
    }

    @Test func theLastPageIsNotHeldToItsFacingPage() {
        let lines = makeLines([9, 4, 6])
        #expect(Paginator.paginate(lines: lines, pageHeights: height, facesPrevious: spreads) == [0..<9, 9..<19])
    }

    @Test func pagesThatDoNotFaceEachOtherAreNotMatched() {
        let lines = makeLines([9, 4, 10, 10])
        let apart = Paginator.paginate(lines: lines, pageHeights: height, facesPrevious: { _ in false })
        #expect(apart == Paginator.paginate(lines: lines, pageHeights: height))
        #expect(Array(apart.prefix(2)) == [0..<9, 9..<19])
    }

    @Test func randomTextsKeepEveryRuleAndMatchMoreSpreads() {
        var rng = SeededGenerator(state: 0xFACE)
        var matched = 0, matchedGreedy = 0
        for round in 0..<600 {
            let paragraphs = (0..<Int.random(in: 1...20, using: &rng)).map { _ in Int.random(in: 1...18, using: &rng) }
            let lineHeight = Double.random(in: 9...22, using: &rng)
            let minimum = Int.random(in: 1...3, using: &rng)
            let fits = (0..<40).map { _ in Int.random(in: (2 * minimum)...32, using: &rng) }
            let heights: (Int) -> Double = { Double(fits[$0 % fits.count]) * lineHeight + lineHeight * 0.5 }
            let firstRight = Int.random(in: 0...1, using: &rng)
            let faces: (Int) -> Bool = { $0 % 2 == firstRight }
            let lines = makeLines(paragraphs, height: { _ in lineHeight })
            let pages = Paginator.paginate(lines: lines, pageHeights: heights, minimumLines: minimum, facesPrevious: faces)
            expectWellFormed(pages, lines, heights)
            #expect(badBreaks(pages, lines, minimum: minimum).isEmpty, "round \(round): \(paragraphs) \(pages)")
            func together(_ pages: [Range<Int>]) -> Int {
                pages.indices.dropFirst().dropLast().filter { faces($0) && abs(depth(lines, pages[$0]) - depth(lines, pages[$0 - 1])) < 0.01 }.count
            }
            matched += together(pages)
            matchedGreedy += together(Paginator.paginate(lines: lines, pageHeights: heights, minimumLines: minimum))
        }
        #expect(matched > matchedGreedy)
    }
}
