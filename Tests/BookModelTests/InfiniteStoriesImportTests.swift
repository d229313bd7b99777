import Foundation
import Testing
@testable import BookModel

@Suite("InfiniteStories import")
struct InfiniteStoriesImportTests {
    @Test func aStoryBecomesOneFlowingTextPage() throws {
        let loaded = try Fixtures.load("apps/infinitestories-story.json")
        let book = loaded.book
        #expect(loaded.source == .infiniteStories)
        // Only that the story's recording is not beside it (see NarrationTests).
        #expect(loaded.warnings.count == 1)
        #expect(book.kind == .storybook)
        #expect(book.theme == "picture-book")
        #expect(book.title == "Luna and the Whispering Woods")
        #expect(book.created == "2024-05-02T00:00:00Z")
        #expect(book.pages.count == 1)
        #expect(book.pages[0].type == .text)
        let paragraphs = try #require((book.pages[0].content.payload as? TextPage)?.text).components(separatedBy: "\n\n")
        #expect(paragraphs.count == 3)
        #expect(paragraphs[2] == "\"Follow me,\" said the owl. And Luna did, all the way home to bed.")
    }

    @Test func whatTheAppWritesImportsAsTheFixtureDoes() throws {
        let fixture = try Fixtures.load("apps/infinitestories-story.json")
        let fresh = try loadAsTheAppWritesIt("apps/infinitestories-story.json", as: InfiniteStories.Story.self)
        #expect(fresh.source == .infiniteStories)
        #expect(fresh.book == fixture.book)
        // The app's encoder orders the fields its own way: the same warnings, at other columns.
        let unplaced = { (warnings: [String]) in warnings.map { $0.replacing(/\ \(line \d+, column \d+\)$/, with: "") } }
        #expect(unplaced(fresh.warnings) == unplaced(fixture.warnings))
    }

    @Test func theHeroBecomesTheMainCharacterWithADescription() throws {
        let main = try #require(try Fixtures.load("apps/infinitestories-story.json").book.characters?.main)
        #expect(main.name == "Luna")
        #expect(main.image == nil)
        #expect(main.description == "Luna, 7 years old. Appearance: curly red hair and a green raincoat. Traits: brave, curious, kind. Special ability: can talk to owls.")
    }

    @Test func aStoryWithoutHeroHasNoCharacters() throws {
        let story = InfiniteStories.Story(title: "T", content: "Once.\r\n\r\nTwice.\r\n", hero: nil, audioFileName: nil,
                                          createdAt: Date(timeIntervalSinceReferenceDate: 0), playCount: 0, isFavorite: false)
        let book = try BookLoader.load(data: try JSONEncoder().encode(story), name: "s.json", folder: URL(fileURLWithPath: "/")).book
        #expect(book.characters == nil)
        #expect(book.pages == [Page(TextPage(text: "Once.\n\nTwice."))])
    }

    @Test func anEmptyStoryIsRefusedAtContent() throws {
        let json = #"{"title":"T","content":"  \n ","createdAt":0,"playCount":1,"isFavorite":false}"#
        let error = try #require(loadError { try loadText(json, name: "story.json") })
        #expect(error.kind == .validation)
        #expect(error.description == "story.json: $.content: the story is empty; there is nothing to print (line 1, column 24)")
    }
}
