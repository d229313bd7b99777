import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport
import BookRenderKit

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
                    format: BookFormat(trim: .preset("6x9")),
                    matter: BookMatter(isbn: "978-0-00-000000-2", publisher: "Porter Street Press", dedication: "For Tom."),
                    pages: pages)
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

    @Test func aPrintedMemoirHasItsTitleCopyrightDedicationAndContentsWhereBooksHaveThem() throws {
        let tree = try TestBooks.document(Self.memoir(), profile: "kdp").layout()
        let roles = tree.pages.prefix(6).map(\.role)
        #expect(Array(roles.prefix(3)) == [.cover, .copyright, .dedication], "\(roles)")
        #expect(tree.pages[0].text.contains("Fifteen Rooms"), "page 1 of a printed interior is the title page")
        #expect(tree.pages[1].text.contains("ISBN 978-0-00-000000-2") && tree.pages[1].text.contains("© 2024 Ada Lane"))
        let contents = tree.pages.filter { $0.role == .contents }
        #expect(!contents.isEmpty)
        #expect(contents.first!.number % 2 == 1, "the contents begin on a right-hand page")
        #expect(tree.pages[2].number % 2 == 1 && tree.pages[2].text.contains("For Tom."))
    }

    /// The contents read from the PDF name each chapter with the page it opens on in that PDF.
    @Test func theContentsNumbersAreThePagesTheChaptersOpenOn() throws {
        let dir = try temporaryDirectory("contents")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("memoir.pdf")
        let document = TestBooks.document(Self.memoir(), profile: "kdp")
        let tree = try document.layout()
        _ = try document.export(ExportOptions(pdf: pdf))
        let pages = tree.pages.filter { $0.role == .contents }.map(\.number)
        var entries: [(title: String, page: Int)] = []
        for n in pages {
            let text = try run("pdftotext", ["-layout", "-f", "\(n)", "-l", "\(n)", pdf.path, "-"]).stdout
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count >= 2, parts[0] == "Chapter", let page = Int(parts.last!) else { continue }
                entries.append((parts.dropLast().joined(separator: " "), page))
            }
        }
        #expect(entries.count == 15)
        for entry in entries {
            let page = try run("pdftotext", ["-f", "\(entry.page)", "-l", "\(entry.page)", pdf.path, "-"]).stdout
            #expect(page.contains(entry.title), "\(entry.title) is listed on page \(entry.page), which does not hold it")
        }
    }

    @Test func aPictureBookEndsOnTheEndUnlessItsStoryAlreadySaysSoOrTheBookTurnsItOff() throws {
        func book(_ last: String, theEnd: Bool? = nil) -> Book {
            Book(kind: .storybook, title: "Pip", language: "en", matter: theEnd.map { BookMatter(theEnd: $0) },
                 pages: [Page(.text(TextPage(text: "Pip went out."))), Page(.text(TextPage(text: last)))])
        }
        let plain = try TestBooks.document(book("Pip came home.")).layout()
        #expect(plain.pages.last?.role == .theEnd && plain.pages.last!.text.contains("The End"))
        let said = try TestBooks.document(book("Pip came home. The End.")).layout()
        #expect(!said.pages.contains { $0.role == .theEnd })
        let off = try TestBooks.document(book("Pip came home.", theEnd: false)).layout()
        #expect(!off.pages.contains { $0.role == .theEnd })
    }
}
