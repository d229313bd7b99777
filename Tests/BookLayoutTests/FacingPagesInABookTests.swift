import Testing
import BookModel
import BookTestSupport
@testable import BookLayout

/// Through a whole memoir: the two text pages of every spread end on the same line wherever
/// legal page breaks allow it.
@Suite struct FacingPagesInABookTests {
    /// A flow's page: its text box and the lines it may take (its frame's height).
    struct FlowPage { let number: Int; let box: TextBox }

    func flowPages(_ tree: PageTree) -> [FlowPage] {
        tree.pages.filter { $0.role == .text }.compactMap { p in
            p.textBoxes.first { $0.lines.count > 0 && $0.layout.lines.count > 3 }.map { FlowPage(number: p.number, box: $0) }
        }
    }

    func depth(_ lines: [TextLine], _ range: Range<Int>) -> Double {
        lines[range.upperBound - 1].baseline - lines[range.lowerBound].top
    }

    func sameLine(_ lines: [TextLine], _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        abs(depth(lines, a) - depth(lines, b)) <= 0.25 * min(lines[a.upperBound - 1].height, lines[b.upperBound - 1].height)
    }

    /// Whether any pair of legal breaks ends both pages on one line, the left page keeping at
    /// least all but two of the lines that fill it and the right page not the flow's last.
    func legalMatchExists(_ lines: [TextLine], start: Int, leftHeight: Double, rightHeight: Double) -> Bool {
        func fits(_ r: Range<Int>, _ h: Double) -> Bool { lines[r.upperBound - 1].bottom - lines[r.lowerBound].top <= h + 1e-6 }
        var full = start + 1
        while full < lines.count && fits(start..<(full + 1), leftHeight) { full += 1 }
        for left in max(start + 1, full - 2)...full where left < lines.count
            && Paginator.isLegalBreak(lines, pageStart: start, at: left, minimum: 2) {
            for right in (left + 1)..<lines.count where fits(left..<right, rightHeight)
                && Paginator.isLegalBreak(lines, pageStart: left, at: right, minimum: 2)
                && sameLine(lines, start..<left, left..<right) {
                return true
            }
        }
        return false
    }

    @Test func everySpreadOfFullTextPagesEndsOnOneLineWhereItCan() throws {
        let book = Book(kind: .memoir, title: "Spreads", language: "en-US", theme: "memoir", pages: [
            Page(ChapterPage(title: "Morning", text: sampleProse(paragraphs: 70, seed: 3))),
            Page(ChapterPage(title: "Evening")),
            Page(TextPage(text: sampleProse(paragraphs: 70, seed: 11))),
        ])
        let pages = flowPages(try TestBooks.document(book).layout())
        var checked = 0, matched = 0
        for (left, right) in zip(pages, pages.dropFirst()) where left.number % 2 == 0 && right.number == left.number + 1 {
            let lines = left.box.layout.lines
            // A picture or another text between them, or the flow's last page: not held to one line.
            guard right.box.layout === left.box.layout, right.box.lines.upperBound < lines.count else { continue }
            checked += 1
            if sameLine(lines, left.box.lines, right.box.lines) { matched += 1; continue }
            #expect(!legalMatchExists(lines, start: left.box.lines.lowerBound, leftHeight: left.box.frame.height,
                                      rightHeight: right.box.frame.height),
                    "pages \(left.number)–\(right.number) end on different lines though legal breaks would match them")
        }
        #expect(checked >= 5, "too few spreads of text pages to check")
        #expect(matched > 0)
    }
}
