import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport
import BookRenderKit

/// A title too long for its page is cut at the page's edge in print; the user hears which page
/// and which entry lost words, and a title that fits is not named.
@Suite struct WordsPastTheEdgeTests {
    func title(words: Int) -> String {
        sampleProse(paragraphs: 160).split(separator: " ").prefix(words).joined(separator: " ")
    }

    @Test func aChapterTitleLongerThanItsPageIsNamedWithTheLinesItLoses() throws {
        let book = Book(kind: .memoir, title: "T", theme: "memoir", pages: [
            Page(ChapterPage(title: title(words: 2_000))),
            Page(TextPage(text: sampleProse(paragraphs: 2))),
        ])
        let tree = try TestBooks.document(book).layout()
        let lost = tree.findings.filter { $0.message.contains("past the bottom of the page") }
        #expect(lost.count == 1, "\(tree.findings)")
        let finding = try #require(lost.first)
        let chapter = try #require(tree.pages.first { $0.role == .chapter })
        #expect(finding.sourcePage == 0 && finding.physicalPages == [chapter.number])
        #expect(finding.description.contains("$.pages[0]"))
    }

    @Test func aCoverTitleLongerThanTheCoverNamesTheCover() throws {
        let book = Book(kind: .storybook, title: "T", theme: "picture-book", cover: Cover(title: title(words: 500)),
                        pages: [Page(TextPage(text: "Once upon a time."))])
        let tree = try TestBooks.document(book).layout()
        let finding = try #require(tree.findings.first { $0.message.contains("past the bottom of the page") })
        #expect(finding.physicalPages == [1] && finding.message.hasPrefix("$.cover"))
    }

    @Test func titlesThatFitAreNotNamed() throws {
        let book = Book(kind: .memoir, title: title(words: 12), theme: "memoir", cover: Cover(title: title(words: 12)), pages: [
            Page(ChapterPage(title: title(words: 40))),
            Page(TextPage(text: sampleProse(paragraphs: 30))),
        ])
        let tree = try TestBooks.document(book).layout()
        #expect(!tree.findings.contains { $0.message.contains("past the bottom of the page") }, "\(tree.findings)")
    }
}
