import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport
import BookRenderKit

/// Books written right to left bind on the right: odd pages are left-hand pages, each spread's
/// first page is its right-hand one, the gutter is on the right of an odd page, viewers are told
/// to show spreads right to left, and the printed cover has its front left of the spine.
@Suite struct RightBindingTests {
    static func arabic(binding: String? = nil, language: String = "ar") -> Book {
        Book(kind: .storybook, title: "مغامرة كبيرة", author: "ليلى", language: language, created: "2024-01-01",
             format: BookFormat(trim: .preset("8.5x8.5"), binding: binding), matter: BookMatter(theEnd: false),
             pages: [Page(TextPage(text: "كان يا ما كان.")),
                     Page(SpreadPage(scene: "a wide desert", leftText: "يسار", rightText: "يمين")),
                     Page(TextPage(text: "النهاية السعيدة."))])
    }

    @Test func anArabicBooksSecondPageIsOnTheRightOfItsFirstSpread() throws {
        let tree = try TestBooks.document(Self.arabic()).layout()
        #expect(tree.pages[0].side == .left, "page 1 of a book bound on the right is a left-hand page")
        #expect(tree.pages[1].side == .right)
        let first = try #require(tree.pages.firstIndex { $0.role == .spreadRight || $0.role == .spreadLeft })
        #expect(tree.pages[first].number % 2 == 0 && tree.pages[first].role == .spreadRight,
                "the spread's first page, an even one, is its right-hand page")
        #expect(tree.pages[first + 1].role == .spreadLeft)
        // Its words: the right-hand text on the right-hand page.
        #expect(tree.pages[first].text.contains("يمين") && tree.pages[first + 1].text.contains("يسار"))
    }

    @Test func theGutterIsOnTheBindingSide() throws {
        let ltr = try TestBooks.document(Self.arabic(binding: "left"), profile: "kdp").layout()
        let rtl = try TestBooks.document(Self.arabic(), profile: "kdp").layout()
        // Page 2, an even page: bound on the left its gutter is on its right; bound on the right, on
        // its left, so its text starts further in.
        func x(_ tree: PageTree, _ number: Int) throws -> Double {
            try #require(tree.pages.first { $0.number == number }?.textBoxes.first { $0.structure == .paragraph }).frame.x
        }
        #expect(try x(rtl, 2) > x(ltr, 2) + 1, "an even page's gutter moves to its left")
    }

    @Test func thePDFAsksForSpreadsRightToLeftAndTheCoverFrontIsLeftOfTheSpine() throws {
        let dir = try temporaryDirectory("rtl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        // Its placeholders are what preflight refuses; the binding is what is looked at here.
        _ = try TestBooks.document(Self.arabic(), profile: "kdp").export(ExportOptions(pdf: pdf, force: true))
        let json = try run("qpdf", ["--json=1", "--json-key=objects", pdf.path]).stdout
        #expect(json.contains("\"/Direction\": \"/R2L\""))
        let plain = dir.appendingPathComponent("plain.pdf")
        _ = try TestBooks.document(Self.arabic(binding: "left")).export(ExportOptions(pdf: plain))
        #expect(!(try run("qpdf", ["--json=1", "--json-key=objects", plain.path]).stdout.contains("/Direction")))

        let resolved = try TestBooks.document(Self.arabic(), profile: "kdp").resolve()
        let (sheet, info) = try CoverSpread.layout(resolved, interiorPages: 24, paper: "white",
                                                   typesetter: try TestFonts.typesetter(language: "ar"))
        let title = try #require(sheet.pages[0].textBoxes.first { $0.structure == .title })
        let spineLeft = sheet.trim.width / 2 - info.spineInches * 72 / 2
        #expect(title.frame.maxX <= spineLeft, "the front's title stands left of the spine")
        #expect(info.barcode.x > spineLeft, "the barcode is on the back, right of the spine")
    }
}
