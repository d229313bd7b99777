import Foundation
import Testing
@testable import BookModel

@Suite("MemoirAI import")
struct MemoirAIImportTests {
    @Test func aStorybookBecomesAMemoir() throws {
        let loaded = try Fixtures.load("apps/memoirai-storybook.json")
        let book = loaded.book
        #expect(loaded.source == .memoirAI)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(book.kind == .memoir)
        #expect(book.theme == "memoir")
        #expect(book.title == "Recipes and Rememberings")
        #expect(book.subtitle == "A life in the kitchen")
        #expect(book.artStyle == "Kid's Book")
        // 736257600.25 s after 2001-01-01 is 2024-05-01 12:00:00.25 UTC; whole seconds are kept.
        #expect(book.created == "2024-05-01T12:00:00Z")
        #expect(book.cover == Cover(title: "Recipes and Rememberings", subtitle: "A life in the kitchen",
                                    accent: "#7C5C3A", photo: .inline(TinyImages.greenJPEG)))

        #expect(book.pages.map(\.type) == [.photo, .text, .photo, .text, .qr])
        #expect(book.pages[0].picture?.image == .inline(TinyImages.redJPEG))
        #expect((book.pages[0].content.payload as? PhotoPage)?.caption == "Grandma's kitchen, 1962")
        #expect((book.pages[1].content.payload as? TextPage)?.text == """
            I grew up in a small house on Elm Street, where the kitchen was the warmest room.

            Every Sunday we baked bread together.

            She never measured anything.

            The smell of it still takes me back.
            """)
        #expect(book.pages[2].picture?.image == .inline(TinyImages.bluePNG))
        #expect((book.pages[2].content.payload as? PhotoPage)?.caption == nil, "an empty caption is no caption")
        #expect((book.pages[3].content.payload as? TextPage)?.text == "Then we moved to the city, and everything changed.")
        #expect(book.pages[4] == Page(id: "9F1C6E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B", QRPage(url: "https://memoir.example.com/s/abc?voice=1")))
    }

    @Test func whatTheAppWritesImportsAsTheFixtureDoes() throws {
        let fixture = try Fixtures.load("apps/memoirai-storybook.json")
        let fresh = try loadAsTheAppWritesIt("apps/memoirai-storybook.json", as: MemoirAI.PersistableStorybook.self)
        #expect(fresh.source == .memoirAI)
        #expect(fresh.book == fixture.book)
        #expect(fresh.warnings == fixture.warnings)
    }

    @Test func aNewerAppsFileLoadsWithWarningsForWhatWasSkipped() throws {
        let loaded = try Fixtures.load("apps/memoirai-newer-app.json")
        let book = loaded.book
        #expect(book.title == MemoirAIImporter.fallbackTitle)
        #expect(book.cover == nil)
        #expect(book.created == "2023-03-08T20:26:40Z")
        #expect(book.pages.map(\.type) == [.text, .text, .photo])
        #expect((book.pages[0].content.payload as? TextPage)?.text == "the middle of a memory")
        #expect((book.pages[1].content.payload as? TextPage)?.text == "A new memory.\n\nIt ends here.")
        #expect(book.pages[2] == Page(PhotoPage(image: .inline(TinyImages.redJPEG), caption: "Dad")))

        let w = loaded.warnings
        #expect(w.count == 3, "\(w)")
        #expect(w.allSatisfy { $0.hasPrefix(Fixtures.url("apps/memoirai-newer-app.json").path + ": ") })
        #expect(w.contains { $0.contains("$.pageItems[0]: this memory's text starts at page 2 of 3") })
        #expect(w.contains { $0.contains("$.pageItems[0]: this memory's text ends at page 2 of 3") })
        #expect(w.contains { $0.contains("$.pageItems[1].video: \"video\" is not a page item") && $0.contains("skipped") })
    }

    /// Swift's encoder writes each enum case as an object keyed by the case name, dates as
    /// seconds since 2001, data as base64 and URLs with escaped slashes.
    @Test func freshlyEncodedStorybookImports() throws {
        let id = UUID(uuidString: "9F1C6E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")!
        let story = MemoirAI.PersistableStorybook(
            profileID: UUID(), pageItems: [.textPage(index: 1, total: 2, body: "a"), .textPage(index: 2, total: 2, body: "b"),
                                           .textPage(index: 1, total: 1, body: "c"),
                                           .illustration(imageData: TinyImages.bluePNG, caption: "Blue"),
                                           .qrCode(id: id, url: URL(string: "https://x.org/a/b")!)],
            artStyle: "Realistic", createdAt: Date(timeIntervalSinceReferenceDate: 0), cover: nil)
        let loaded = try BookLoader.load(data: try JSONEncoder().encode(story), name: "s.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(loaded.book.pages.map { ($0.content.payload as? TextPage)?.text } == ["a\n\nb", "c", nil, nil])
        #expect(loaded.book.pages[2] == Page(PhotoPage(image: .inline(TinyImages.bluePNG), caption: "Blue")))
        #expect(loaded.book.pages[3] == Page(id: id.uuidString, QRPage(url: "https://x.org/a/b")))
        #expect(loaded.book.created == "2001-01-01T00:00:00Z")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    @Test func aBadAccentIsDroppedWithAWarning() throws {
        let story = MemoirAI.PersistableStorybook(
            profileID: UUID(), pageItems: [.textPage(index: 1, total: 1, body: "a")], artStyle: "Cartoon",
            createdAt: Date(timeIntervalSinceReferenceDate: 0),
            cover: .init(title: "T", subtitle: "", accentHex: "brownish", coverPhotoData: nil))
        let loaded = try BookLoader.load(data: try JSONEncoder().encode(story), name: "s.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(loaded.book.cover?.accent == nil)
        #expect(loaded.book.subtitle == nil)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.hasPrefix("s.json: $.cover.accentHex: \"brownish\" is not a #RRGGBB colour; the theme's accent is used (line 1, column ") == true)
    }

    @Test func aWrongTypeNamesTheAppFilesPath() throws {
        let json = #"{"profileID":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","pageItems":[{"textPage":{"index":1,"total":1,"body":"a"}},{"textPage":{"index":"2","total":1,"body":"b"}}],"artStyle":"x","createdAt":0}"#
        let error = try #require(loadError { try loadText(json, name: "memoir.json") })
        #expect(error.kind == .schema)
        #expect(error.description.hasPrefix("memoir.json: $.pageItems[1].textPage.index: expected an integer, found a string (\"2\")"))
        #expect(error.description.contains("MemoirAI storybook"))
    }

    @Test func anEmptyStorybookIsRefused() throws {
        let json = #"{"profileID":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","pageItems":[],"artStyle":"x","createdAt":0}"#
        let error = try #require(loadError { try loadText(json, name: "memoir.json") })
        #expect(error.kind == .validation)
        #expect(error.description.hasPrefix("memoir.json: $.pageItems: the storybook has no pages"))
    }
}
