import Foundation
import Testing
@testable import BookModel

@Suite("Export to book.json")
struct ExporterTests {
    @Test("every fixture survives encode → load unchanged", arguments: [
        "books/picture-book/book.json", "books/memoir-trade/book.json",
        "apps/memoirai-storybook.json", "apps/roger-story.json", "apps/infinitestories-story.json",
    ])
    func roundTrip(file: String) throws {
        let original = try Fixtures.load(file).book
        let data = try BookExporter.encode(original)
        let again = try BookLoader.load(data: data, name: "exported.json", folder: Fixtures.url(file).deletingLastPathComponent())
        #expect(again.source == .bookJSON)
        #expect(again.warnings.isEmpty, "\(again.warnings)")
        #expect(again.book == original)
    }

    @Test func theOutputIsStableSortedAndPretty() throws {
        let book = try Fixtures.load("apps/roger-story.json").book
        let a = try BookExporter.encode(book)
        let b = try BookExporter.encode(try BookLoader.load(data: a, name: "x", folder: URL(fileURLWithPath: "/")).book)
        #expect(a == b)
        let text = String(decoding: a, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"characters\""))
        #expect(text.contains("\"schema\" : 1"))
        #expect(!text.contains("\\/"), "slashes are not escaped")
        #expect(text.hasSuffix("}\n"))
    }

    @Test func theSchemaVersionIsAlwaysTheCurrentOne() throws {
        var book = Book(kind: .memoir, title: "T", pages: [Page(TextPage(text: "x"))])
        book.schema = 7
        let object = try JSONSerialization.jsonObject(with: BookExporter.encode(book)) as? [String: Any]
        #expect(object?["schema"] as? Int == Book.currentSchema)
    }

    @Test func inlineImagesCanBeMovedToFiles() throws {
        let book = try Fixtures.load("apps/memoirai-storybook.json").book
        let (external, images) = BookExporter.extractingInlineImages(of: book)
        #expect(images.map(\.path) == ["images/cover.jpg", "images/page-1.jpg", "images/page-3.png"])
        #expect(images.map(\.data) == [TinyImages.greenJPEG, TinyImages.redJPEG, TinyImages.bluePNG])
        #expect(external.cover?.photo == .path("images/cover.jpg"))
        #expect(external.pages[0].picture?.image == .path("images/page-1.jpg"))
        #expect(external.pages[2].picture?.image == .path("images/page-3.png"))
        #expect(BookValidator.validate(external).isValid)
    }

    @Test func repeatedImagesShareOneFile() {
        let image = ImageRef.inline(TinyImages.redJPEG)
        let book = Book(kind: .storybook, title: "T", characters: Characters(main: MainCharacter(name: "E", image: image)),
                        pages: (0..<10).map { _ in Page(PhotoPage(image: image)) })
        let (external, images) = BookExporter.extractingInlineImages(of: book, into: "pics")
        #expect(images.map(\.path) == ["pics/main-character.jpg"])
        #expect(external.pages.allSatisfy { $0.picture?.image == .path("pics/main-character.jpg") })
    }
}
