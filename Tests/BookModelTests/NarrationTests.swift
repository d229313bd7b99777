import Foundation
import Testing
@testable import BookModel

@Suite("Narration in book.json")
struct NarrationTests {
    static let pages = #"{"type": "text", "text": "One."}, {"type": "text", "text": "Two."}, {"type": "text", "text": "Three."}"#

    @Test func oneRecordingWithEachPagesStartLoads() throws {
        let book = try loadText(bookJSON(pages: Self.pages, extra: #" "narration": {"audio": "audio/book.mp3", "pages": [{"page": 1, "start": 0}, {"page": 3, "start": 4.5}]},"#)).book
        #expect(book.narration == Narration(audio: "audio/book.mp3", pages: [NarratedPage(page: 1, start: 0), NarratedPage(page: 3, start: 4.5)]))
        #expect(book.narration?.files == ["audio/book.mp3"])
    }

    @Test func aRecordingPerPageLoads() throws {
        let loaded = try loadText(bookJSON(pages: Self.pages, extra: #" "narration": {"pages": [{"page": 1, "audio": "p1.m4a"}, {"page": 2, "audio": "p2.MP3"}]},"#))
        #expect(loaded.book.narration?.files == ["p1.m4a", "p2.MP3"])
        #expect(loaded.warnings.isEmpty)
    }

    @Test("each broken rule is named at its field", arguments: [
        (#"{"audio": "a.mp3", "pages": [{"page": 1}]}"#, "$.narration.pages[0]: needs \"start\""),
        (#"{"audio": "a.mp3", "pages": [{"page": 4, "start": 0}]}"#, "$.narration.pages[0].page: page 4 is not in the book"),
        (#"{"audio": "a.mp3", "pages": [{"page": 2, "start": 0}, {"page": 1, "start": 3}]}"#, "$.narration.pages[1].page: page 1 comes after page 2"),
        (#"{"audio": "a.mp3", "pages": [{"page": 1, "start": 5}, {"page": 2, "start": 3}]}"#, "$.narration.pages[1].start: starts at 3 s, not after the page before it (5 s)"),
        (#"{"audio": "a.mp3", "pages": [{"page": 1, "start": 0, "audio": "b.mp3"}]}"#, "$.narration.pages[0].audio: the narration has one recording for the book"),
        (#"{"pages": [{"page": 1}]}"#, "$.narration.pages[0]: needs \"audio\""),
        (#"{"pages": [{"page": 1, "audio": "a.mp3", "start": 2}]}"#, "$.narration.pages[0].start: a page with its own recording is read from its start"),
        (#"{"audio": "a.wav", "pages": [{"page": 1, "start": 0}]}"#, "$.narration.audio: a.wav is not an MP3 or M4A file"),
        (#"{"audio": "../a.mp3", "pages": [{"page": 1, "start": 0}]}"#, "$.narration.audio: \"../a.mp3\" leaves the book's folder"),
        (#"{"audio": "a.mp3", "pages": []}"#, "$.narration.pages: the narration names no page"),
    ])
    func brokenRules(_ narration: String, _ expected: String) throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: Self.pages, extra: " \"narration\": \(narration),")) })
        #expect(error.kind == .validation)
        #expect(error.description.contains("book.json: " + expected), "\(error)")
    }

    @Test func anUnknownFieldInTheNarrationIsWarnedOf() throws {
        let loaded = try loadText(bookJSON(pages: Self.pages, extra: #" "narration": {"audio": "a.mp3", "pages": [{"page": 1, "start": 0, "strat": 1}]},"#))
        #expect(loaded.warnings.contains { $0.contains("$.narration.pages[0].strat: unknown field") && $0.contains("did you mean \"start\"?") }, "\(loaded.warnings)")
    }

    /// The app saves its recording beside the story; the imported book reads it from the start.
    @Test func anInfiniteStoriesRecordingBesideTheStoryBecomesItsNarration() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Fixtures.data("apps/infinitestories-story.json")
        try Data([0xFF, 0xFB, 0x90, 0x00]).write(to: folder.appendingPathComponent("story_1714600000.mp3"))
        let loaded = try BookLoader.load(data: data, name: "story.json", folder: folder)
        #expect(loaded.book.narration == Narration(audio: "story_1714600000.mp3", pages: [NarratedPage(page: 1, start: 0)]))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    @Test func anInfiniteStoriesRecordingNotYetSavedLeavesTheBookWithoutNarration() throws {
        let loaded = try Fixtures.load("apps/infinitestories-story.json")
        #expect(loaded.book.narration == nil)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains("$.audioFileName: the recording story_1714600000.mp3 is not beside the file; the book has no narration until it is") == true,
                "\(loaded.warnings)")
    }
}
