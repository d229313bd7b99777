import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport

/// How a long memoir is made up: no chapter ends on a page of a line or three, and a printed book
/// opens every chapter on a right-hand page.
@Suite struct MemoirMakeUpTests {
    /// Fifteen chapters of different lengths, so that chapters end at every height of a page.
    static func memoir(chapters: Int = 15) -> Book {
        var pages: [Page] = []
        for c in 0..<chapters {
            pages.append(Page(.chapter(ChapterPage(title: "Chapter \(c + 1)", subtitle: nil))))
            pages.append(Page(.text(TextPage(text: sampleProse(paragraphs: 6 + (c * 7) % 17, seed: UInt64(c + 3))))))
        }
        return Book(kind: .memoir, title: "Fifteen Rooms", author: "Ada Lane", language: "en-US", created: "2024-01-01",
                    format: BookFormat(trim: .preset("6x9")), pages: pages)
    }

    /// Lines of body text on each page that holds any.
    static func bodyLines(_ page: PageNode) -> Int {
        page.textBoxes.filter { $0.structure == .paragraph }.reduce(0) { $0 + $1.lines.count }
    }

    @Test func noChapterEndsOnAPageOfThreeLinesOrFewer() throws {
        for profile in [nil, "kdp"] as [String?] {
            let tree = try TestBooks.document(Self.memoir(), profile: profile).layout()
            let textPages = tree.pages.filter { $0.role == .text || $0.role == .chapter }
            #expect(textPages.count > 40)
            for page in textPages {
                let lines = Self.bodyLines(page)
                #expect(lines == 0 || lines > 3, "page \(page.number) (\(profile ?? "no profile")) holds \(lines) line(s)")
            }
        }
    }

    @Test func withAPrintProfileEveryChapterOpensOnTheRight() throws {
        let screen = try TestBooks.document(Self.memoir(), profile: nil).layout()
        #expect(screen.chapters.contains { $0.page % 2 == 0 }, "the memoir theme lets a chapter open on a left-hand page on screen")
        let print = try TestBooks.document(Self.memoir(), profile: "kdp").layout()
        #expect(print.chapters.count == 15)
        for chapter in print.chapters {
            #expect(chapter.page % 2 == 1, "\(chapter.title) opens on page \(chapter.page), a left-hand page")
        }
        // The pages put in for it say why.
        let blanks = print.pages.filter { $0.role == .blank }
        #expect(blanks.allSatisfy { $0.blankReason?.contains("right-hand") ?? false })
    }
}
