import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport
import BookRenderKit

/// How chapters open and what blank pages are put in, asserted on the page tree.
@Suite struct ChapterOpeningTests {
    func golden(_ path: String) -> URL { GoldenCase.root.appendingPathComponent(path).appendingPathComponent("book.json") }

    @Test func theMemoirThemeSinksTheTitleOntoTheFirstPageOfText() throws {
        let tree = try TestBooks.open(golden("chapters/sink-memoir")).layout()
        #expect(!tree.pages.contains { $0.role == .blank })
        let opening = try #require(tree.pages.first { $0.role == .chapter })
        #expect(opening.number == 2, "chapterStart any: the opening is the next page, a left-hand one here")
        #expect(opening.text.contains("The Kitchen") && opening.text.contains("1958–1966"))
        #expect(opening.text.contains("The kitchen on Porter Street"), "the chapter's text starts under its title")
        // The text starts below the heading, inside the text area's lower part.
        let boxes = opening.textBoxes.sorted { $0.frame.y < $1.frame.y }
        let heading = boxes[0], body = try #require(boxes.first { $0.text.contains("Porter Street") })
        #expect(body.frame.y > heading.frame.maxY)
        #expect(body.frame.maxY <= tree.trim.height - tree.margins.bottom + 0.01)
    }

    @Test func aTitlePageThatOpensOnTheRightPutsInABlankPageAndSaysWhy() throws {
        let tree = try TestBooks.open(golden("chapters/title-page-recto")).layout()
        #expect(tree.pages.map(\.role) == [.cover, .blank, .chapter, .text])
        let chapter = tree.pages[2]
        #expect(!chapter.text.contains("Porter Street"), "a title page holds the title alone")
        let reason = try #require(tree.pages[1].blankReason)
        #expect(reason.contains("right-hand") && reason.contains("recto"))
        #expect(tree.findings.contains { $0.kind == .blankPageInserted && $0.physicalPages == [2] && $0.message.contains(reason) })
        // A chapter's text after its title page starts at the top, short as it is.
        let body = try #require(tree.pages[3].textBoxes.first { $0.text.contains("Porter Street") })
        #expect(abs(body.frame.y - tree.margins.top) < 0.01)
    }

    @Test func theSampleMemoirHasNoBlankAndNoTitleOnlyPages() throws {
        let book = Repository.samples.appendingPathComponent("memoir/book.json")
        let tree = try TestBooks.open(book).layout()
        #expect(!tree.pages.contains { $0.role == .blank })
        #expect(!tree.findings.contains { $0.kind == .blankPageInserted })
        let openings = tree.pages.filter { $0.role == .chapter }
        #expect(openings.count == 3)
        for page in openings {
            // Title, subtitle, the chapter's text and the folio.
            let words = page.text.split(whereSeparator: \.isWhitespace).count
            #expect(words > 60, "page \(page.number) holds \(words) words: a title-only page")
        }

        // And in the PDF: every page prints something, and no page is its chapter's title alone.
        let dir = try temporaryDirectory("memoir-openings")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("memoir.pdf")
        _ = try TestBooks.open(book).export(ExportOptions(pdf: pdf))
        for page in tree.pages {
            let text = try run("pdftotext", ["-f", "\(page.number)", "-l", "\(page.number)", pdf.path, "-"]).stdout
            let words = text.split(whereSeparator: \.isWhitespace).count
            #expect(words > 0, "page \(page.number) of the PDF is blank")
            // The contents name every chapter; no other page may hold a title alone.
            for title in tree.chapters.map(\.title) where text.contains(title) && page.role != .contents {
                #expect(words > 60, "page \(page.number) of the PDF holds \"\(title)\" and \(words) words in all")
            }
        }
    }

    /// A spread that would open on a right-hand page: the picture on the left page before it gives
    /// its words a page of their own facing it, so the spread moves to the left with nothing blank.
    @Test func aSpreadThatWouldStartOnTheRightTakesAPageFromThePictureBeforeIt() throws {
        let book = Book(kind: .storybook, title: "Wide", pages: [
            Page(IllustrationPage(text: "One.", scene: "a hill")),   // page 2; the spread would start on 3
            Page(SpreadPage(scene: "a wide sea", leftText: "Across", rightText: "the sea")),
        ])
        let tree = try TestBooks.document(book).layout()
        #expect(tree.pages.map(\.role) == [.cover, .illustration, .text, .spreadLeft, .spreadRight, .theEnd])
        #expect(tree.pages[2].text.contains("One."), "the picture's words face it")
        #expect(!tree.findings.contains { $0.kind == .blankPageInserted })
    }

    /// With no picture before it that can give its words a page, a designed page (the book's
    /// vignette) stands where the blank would, and the report says why.
    @Test func aSpreadThatWouldStartOnTheRightExplainsItsDesignedPage() throws {
        let book = Book(kind: .storybook, title: "Wide", pages: [
            Page(TextPage(text: "One.")),   // page 2; the spread would start on 3
            Page(SpreadPage(scene: "a wide sea", leftText: "Across", rightText: "the sea")),
        ])
        let document = TestBooks.document(book)
        let tree = try document.layout()
        #expect(tree.pages.map(\.role) == [.cover, .text, .designed, .spreadLeft, .spreadRight, .theEnd])
        #expect(!tree.pages[2].items.filter { if case .fill = $0 { false } else { true } }.isEmpty, "the designed page is not empty")
        let finding = try #require(tree.findings.first { $0.physicalPages == [3] })
        #expect(finding.message.contains("designed page") && finding.message.contains("spread") && finding.message.contains("face each other"))
    }

    @Test func aRectoChapterThatWouldStartOnTheLeftExplainsItsBlankPage() throws {
        var book = Book(kind: .memoir, title: "Memoir", pages: [
            Page(TextPage(text: "One.")),   // page 2; the chapter would start on 3: right already
            Page(TextPage(text: "Two.")),   // page 3
            Page(ChapterPage(title: "Part Two")),
        ])
        book.tokens = .object(["templates": .object(["chapter": .object(["chapterOpening": .string("page"), "chapterStart": .string("recto")])])])
        let document = TestBooks.document(book)
        let tree = try document.layout()
        #expect(tree.pages.map(\.role) == [.cover, .text, .text, .blank, .chapter])
        let reason = try #require(tree.pages[3].blankReason)
        #expect(reason.contains("right-hand"))
        let finding = try #require(tree.findings.first { $0.kind == .blankPageInserted })
        #expect(finding.physicalPages == [4] && finding.message.contains(reason))

        let described = try document.describe()
        #expect(described.blankPages.map(\.page) == [4] && described.blankPages.first?.why == reason)
        #expect(described.warnings.contains { $0.contains("blank page inserted") && $0.contains("right-hand") })
    }
}
