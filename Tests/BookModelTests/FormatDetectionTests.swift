import Foundation
import Testing
@testable import BookModel

@Suite("Format detection")
struct FormatDetectionTests {
    @Test("each fixture is recognised by its top-level keys", arguments: [
        ("apps/memoirai-storybook.json", SourceFormat.memoirAI),
        ("apps/memoirai-newer-app.json", .memoirAI),
        ("apps/roger-story.json", .roger),
        ("apps/infinitestories-story.json", .infiniteStories),
        ("books/picture-book/book.json", .bookJSON),
        ("books/memoir-trade/book.json", .bookJSON),
    ])
    func detects(file: String, format: SourceFormat) throws {
        #expect(BookLoader.detectFormat(of: try Fixtures.data(file)) == format)
        #expect(try Fixtures.load(file).source == format)
    }

    @Test func unknownFormatListsTheRecognisedOnes() throws {
        let error = try #require(Fixtures.error("bad/unknown-format.json"))
        #expect(error.kind == .unsupported)
        let text = error.description
        #expect(text.contains("unknown-format.json"))
        for expected in ["book.json", "MemoirAI", "Roger", "InfiniteStories", "\"pageItems\"", "\"characterManifest\"", "\"playCount\""] {
            #expect(text.contains(expected), "\(expected) missing from: \(text)")
        }
    }

    @Test func aTopLevelArrayIsNotABook() throws {
        let error = try #require(loadError { try loadText("[1, 2]") })
        #expect(error.kind == .unsupported)
        #expect(error.description.contains("an array, not an object"))
    }

    @Test func aBookWithoutSchemaIsToldToAddIt() throws {
        let error = try #require(loadError { try loadText(#"{"kind": "storybook", "title": "T", "pages": []}"#) })
        #expect(error.kind == .schema)
        #expect(error.description.contains("\"schema\": 1"))
    }

    @Test func aFolderLoadsItsBookJSON() throws {
        let loaded = try BookLoader.load(contentsOf: Fixtures.url("books/memoir-trade"))
        #expect(loaded.book.title == "Letters from Lisbon")
        #expect(loaded.folder.standardizedFileURL == Fixtures.url("books/memoir-trade").standardizedFileURL)
    }

    @Test func aMissingFileIsAnIOErrorNamingIt() throws {
        let error = try #require(loadError { try BookLoader.load(contentsOf: URL(fileURLWithPath: "/nonexistent/story.json")) })
        #expect(error.kind == .io)
        #expect(error.description == "/nonexistent/story.json: no such file")
    }

    @Test func aFolderWithoutBookJSONSaysSo() throws {
        let error = try #require(loadError { try BookLoader.load(contentsOf: Fixtures.url("bad")) })
        #expect(error.kind == .io)
        #expect(error.description.hasSuffix("book.json: the folder has no book.json"))
    }
}

@Suite("Reading files")
struct ReadingTests {
    @Test func aRemoteURLIsNotFetched() throws {
        let error = try #require(loadError { try BookLoader.load(contentsOf: URL(string: "https://example.com/book.json")!) })
        #expect(error.kind == .io)
        #expect(error.description == "https://example.com/book.json: only local files are read; download the book first")
    }

    @Test func aRelativePathIsNamedAsGiven() throws {
        // What URL(fileURLWithPath:) makes of a relative command-line argument: relative to the working directory.
        let given = URL(fileURLWithPath: "bad/wrong-type.json", relativeTo: Fixtures.folder)
        let error = try #require(loadError { try BookLoader.load(contentsOf: given) })
        #expect(error.description.hasPrefix("bad/wrong-type.json: $.pages[1].text: "))
    }
}
