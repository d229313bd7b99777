import Testing
@testable import BookLayout

@Suite struct PaginatorTests {
    @Test func aParagraphThatFitsStaysOnOnePage() {
        let lines = makeLines([3, 2])
        #expect(Paginator.paginate(lines: lines, pageHeights: { _ in 100 }) == [0..<5])
        #expect(Paginator.paginate(lines: [], pageHeights: { _ in 100 }) == [])
    }

    @Test func aWidowPullsALineForward() {
        // 5 lines, 4 fit: greedy 4 + 1 would strand one line on page 2.
        let lines = makeLines([5])
        #expect(Paginator.paginate(lines: lines, pageHeights: { _ in 48 }) == [0..<3, 3..<5])
    }

    @Test func anOrphanMovesToTheNextPage() {
        // Paragraph 2's first line would sit alone at the bottom of page 1.
        let lines = makeLines([3, 3])
        #expect(Paginator.paginate(lines: lines, pageHeights: { _ in 48 }) == [0..<3, 3..<6])
    }

    @Test func aParagraphTooShortToSplitMovesWhole() {
        // Three lines cannot be split 2 + 2; with one line of room left, all three move.
        let lines = makeLines([2, 3, 4])
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 36 })
        #expect(pages == [0..<2, 2..<5, 5..<7, 7..<9])
        expectWellFormed(pages, lines, { _ in 36 })
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
    }

    @Test func minimumLinesOfOneIsPlainGreedy() {
        let lines = makeLines([5])
        #expect(Paginator.paginate(lines: lines, pageHeights: { _ in 48 }, minimumLines: 1) == [0..<4, 4..<5])
    }

    @Test func oneLineParagraphsNeverNeedMoving() {
        let lines = makeLines(Array(repeating: 1, count: 10))
        #expect(Paginator.paginate(lines: lines, pageHeights: { _ in 36 }) == [0..<3, 3..<6, 6..<9, 9..<10])
    }

    @Test func aParagraphLongerThanAPageFlowsOverSeveralPages() {
        let lines = makeLines([1, 25])
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 120 })
        expectWellFormed(pages, lines, { _ in 120 })
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
        #expect(pages.count == 3)
    }

    @Test func aPageThatFitsOneLineTakesOneLineEach() {
        let lines = makeLines([4, 1, 3])
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 12 })
        #expect(pages == (0..<8).map { $0..<($0 + 1) })
    }

    @Test func aLineTallerThanThePageGoesAloneOnAPage() {
        let lines = makeLines([2, 1, 2], height: { $0 == 2 ? 80 : 12 })
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 50 })
        #expect(pages == [0..<2, 2..<3, 3..<5])
        expectWellFormed(pages, lines, { _ in 50 })
    }

    @Test func pagesMayDifferInHeight() {
        let lines = makeLines([3, 6, 4])
        let heights: (Int) -> Double = { $0 == 0 ? 36 : 60 }
        let pages = Paginator.paginate(lines: lines, pageHeights: heights)
        expectWellFormed(pages, lines, heights)
        #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
        #expect(pages.first == 0..<3)
    }

    @Test func aSliceStartingMidParagraphIsPaginated() {
        // The rest of a text whose first lines went on an earlier page.
        let all = makeLines([6, 3])
        let rest = Array(all[3...])
        let pages = Paginator.paginate(lines: rest, pageHeights: { _ in 36 })
        expectWellFormed(pages, rest, { _ in 36 })
        #expect(badBreaks(pages, rest, minimum: 2).isEmpty)
        #expect(pages == [0..<3, 3..<6])
    }

    @Test func randomParagraphMixesNeverLeaveWidowsOrOrphans() {
        var rng = SeededGenerator(state: 0xB00C)
        for round in 0..<600 {
            let paragraphs = (0..<Int.random(in: 1...14, using: &rng)).map { _ in Int.random(in: 1...18, using: &rng) }
            let lineHeight = Double.random(in: 9...22, using: &rng)
            let minimum = Int.random(in: 1...3, using: &rng)
            // Room for at least 2 × minimum lines on every page: then a legal break always exists.
            let fits = (0..<40).map { _ in Int.random(in: (2 * minimum)...32, using: &rng) }
            let heights: (Int) -> Double = { Double(fits[$0 % fits.count]) * lineHeight + lineHeight * 0.5 }
            let lines = makeLines(paragraphs, height: { _ in lineHeight })
            let pages = Paginator.paginate(lines: lines, pageHeights: heights, minimumLines: minimum)
            expectWellFormed(pages, lines, heights)
            #expect(badBreaks(pages, lines, minimum: minimum).isEmpty, "round \(round): \(paragraphs) \(pages)")
        }
    }

    @Test func randomMixedHeightsAndTinyPagesStayWellFormed() {
        var rng = SeededGenerator(state: 42)
        for _ in 0..<400 {
            let paragraphs = (0..<Int.random(in: 1...10, using: &rng)).map { _ in Int.random(in: 1...12, using: &rng) }
            let total = paragraphs.reduce(0, +)
            let lineHeights = (0..<total).map { _ in Double.random(in: 8...30, using: &rng) }
            let pageHeight = Double.random(in: 5...200, using: &rng)
            let lines = makeLines(paragraphs, height: { lineHeights[$0] })
            let pages = Paginator.paginate(lines: lines, pageHeights: { _ in pageHeight })
            expectWellFormed(pages, lines, { _ in pageHeight })
        }
    }

    @Test func realTypesetLinesPaginate() throws {
        let text = Array(repeating: sampleEnglish, count: 6).joined(separator: "\n\n")
        let layout = try makeTypesetter().layout(text, style: bodyStyle, width: 220, alignment: .justify, hyphenate: true)
        let pages = Paginator.paginate(lines: layout.lines, pageHeights: { _ in 200 })
        expectWellFormed(pages, layout.lines, { _ in 200 })
        #expect(badBreaks(pages, layout.lines, minimum: 2).isEmpty)
        #expect(pages.count > 1)
    }

    @Test func aLastPageOfALineOrThreeTakesLinesFromThePageBefore() {
        // One-line paragraphs, ten to a page: 10, 10 and 2 when filled greedily.
        let lines = makeLines(Array(repeating: 1, count: 22))
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 120 })
        expectWellFormed(pages, lines, { _ in 120 })
        #expect(pages.map(\.count) == [10, 8, 4])
    }

    @Test func aSpreadThatGivesLinesToTheLastPageStillEndsOnOneLine() {
        let lines = makeLines(Array(repeating: 1, count: 22))
        // Page 1 faces page 0; page 2, the last, faces nothing.
        let pages = Paginator.paginate(lines: lines, pageHeights: { _ in 120 }, facesPrevious: { $0 == 1 })
        expectWellFormed(pages, lines, { _ in 120 })
        #expect(pages.last!.count >= 4)
        #expect(pages[0].count == pages[1].count, "\(pages.map(\.count))")
    }

    @Test func randomFlowsEndOnAPageOfFourLinesWhereTheRulesAllowIt() {
        var rng = SeededGenerator(state: 11)
        for _ in 0..<300 {
            let paragraphs = (0..<Int.random(in: 2...12, using: &rng)).map { _ in Int.random(in: 1...9, using: &rng) }
            let lines = makeLines(paragraphs)
            let height = Double(Int.random(in: 12...30, using: &rng)) * 12
            let pages = Paginator.paginate(lines: lines, pageHeights: { _ in height })
            expectWellFormed(pages, lines, { _ in height })
            #expect(badBreaks(pages, lines, minimum: 2).isEmpty)
            // With a page of twelve lines or more and paragraphs of at most nine, a legal break
            // four to six lines up the page before always exists.
            if pages.count > 1 { #expect(pages.last!.count >= 4, "\(paragraphs) at \(height): \(pages.map(\.count))") }
        }
    }
}
