import Foundation
import Testing
@testable import BookModel
import BookTestSupport

@Suite("book.json")
struct BookJSONTests {
    @Test func theFullFixtureLoadsEveryField() throws {
        let loaded = try Fixtures.load("books/picture-book/book.json")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.folder.standardizedFileURL == Fixtures.url("books/picture-book").standardizedFileURL)
        let book = loaded.book
        #expect(book.kind == .storybook)
        #expect(book.language == "en-US")
        #expect(book.created == "2024-05-01T12:00:00Z")
        #expect(book.tokens?["palette"]?["accent"] == .string("#C0392B"))
        #expect(book.format?.trim == .preset("8.25x11"))
        #expect(book.format?.margins == Margins(top: .inches(0.5), bottom: .mm(12), inner: Length(points: 54), outer: .inches(0.5)))
        #expect(book.cover?.photo == .path("images/cover.png"))
        #expect(book.characters?.main?.image == .path("images/emma.png"))
        #expect(book.characters?.secondary?.first?.appearance.accessories == "straw hat")
        #expect(book.pages.map(\.type) == [.chapter, .illustration, .illustration, .text, .photo, .spread, .qr])
        #expect(book.pages[4].picture?.image == .inline(TinyImages.greenJPEG))
        #expect(book.pages[5].picture?.image == .inline(TinyImages.bluePNG), "a data: URL decodes to its bytes")
        #expect((book.pages[6].content.payload as? QRPage)?.url == "https://example.com/listen/emma")
    }

    @Test func anExplicitTrimSize() throws {
        let book = try Fixtures.load("books/memoir-trade/book.json").book
        #expect(book.format?.trim == .size(width: .inches(6), height: .inches(9)))
        #expect(book.kind == .memoir)
    }

    @Test func unknownFieldsAreWarnedAboutWithASuggestion() throws {
        let json = """
            {"schema": 1, "kind": "storybook", "title": "T", "colour": "red",
             "pages": [{"type": "photo", "image": {"path": "a.png", "alt": "x"}, "captoin": "Hello"}],
             "cover": {"Title": "T"}}
            """
        let loaded = try loadText(json)
        #expect(loaded.warnings == [
            "book.json: $.colour: unknown field, ignored (line 1, column 50)",
            "book.json: $.pages[0].image.alt: unknown field, ignored (line 2, column 57)",
            "book.json: $.pages[0].captoin: unknown field, ignored; did you mean \"caption\"? (line 2, column 70)",
            "book.json: $.cover.Title: unknown field, ignored; did you mean \"title\"? (line 3, column 12)",
        ])
    }

    @Test func tokensAreFreeAndDollarSchemaIsAllowed() throws {
        let loaded = try loadText(bookJSON(pages: #"{"type": "text", "text": "x"}"#,
                                           extra: #" "$schema": "https://example.com/s.json", "tokens": {"anything": {"at": [1, 2]}},"#))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    @Test func aDuplicateKeyIsAnErrorBecauseToolsDisagreeWhichWins() throws {
        let json = #"{"schema": 1, "kind": "storybook", "title": "First", "title": "Second", "pages": [{"type": "text", "text": "x", "text": "y"}]}"#
        let error = try #require(loadError { try loadText(json) })
        #expect(error.kind == .schema)
        #expect(error.description == """
            book.json: $.title: "title" appears twice in the same object (first at line 1, column 36); keep one (line 1, column 54)
            book.json: $.pages[0].text: "text" appears twice in the same object (first at line 1, column 100); keep one (line 1, column 113)
            """)
    }

    @Test func fieldsAPageTypeIgnoresAreWarnedAbout() throws {
        let loaded = try loadText(bookJSON(pages: #"{"type": "text", "text": "x", "url": "https://x.org", "leftText": "l"}"#))
        #expect(loaded.warnings.count == 2)
        #expect(loaded.warnings.contains { $0.contains("$.pages[0].leftText: \"leftText\" is not used on a text page") })
        #expect(loaded.warnings.contains { $0.contains("$.pages[0].url: \"url\" is not used on a text page") })
    }

    @Test func theDocumentedExampleLoadsCleanly() throws {
        let doc = try String(contentsOf: Repository.root.appendingPathComponent("docs/book-json.md"), encoding: .utf8)
        let afterHeading = try #require(doc.range(of: "## Example\n\n```json\n"))
        let end = try #require(doc.range(of: "```", range: afterHeading.upperBound..<doc.endIndex))
        let loaded = try loadText(String(doc[afterHeading.upperBound..<end.lowerBound]), name: "docs/book-json.md")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.book.pages.count == 7)
    }

    @Test func theKnownFieldsFollowTheModel() {
        guard case .object(let root) = BookShape.root, case .array(.object(let page))? = root["pages"] else {
            Issue.record("unexpected shape")
            return
        }
        #expect(Set(root.keys) == ["$schema", "schema", "kind", "title", "subtitle", "author", "language", "artStyle", "created",
                                   "theme", "tokens", "format", "cover", "characters", "matter", "pages", "narration"])
        #expect(Set(page.keys) == ["type", "id", "image", "caption", "text", "scene", "title", "subtitle", "leftText", "rightText", "url",
                                   "focus", "fit"])
    }
}
