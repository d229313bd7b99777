import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

@Suite struct CacheTests {
    @Test func unchangedRerunMakesZeroCalls() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("cache")
        let url = try makeBook(pages: 4, in: dir)
        let original = try Data(contentsOf: url)
        let cache = dir.appendingPathComponent("cache")
        let first = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: cache))
        #expect(first.calls == 5)
        let filled = try Data(contentsOf: url)

        // The filled book: nothing left to do.
        let again = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: cache))
        #expect(again.calls == 0 && again.needed == 0)

        // The same unfilled book in a new folder, journal gone: everything comes from the cache.
        let other = try temporaryDirectory("cache-copy")
        let copy = try makeBook(pages: 4, in: other)
        try original.write(to: copy)
        let fromCache = try await Illustrator.run(bookAt: copy, options: options(.openai, server: server, cache: cache))
        #expect(fromCache.calls == 0)
        #expect(fromCache.cacheHits == 5)
        #expect(try server.requests().count == 5)
        #expect(try Data(contentsOf: copy) == filled)

        // A changed scene changes the request: one call, for that page only.
        var book = try BookLoader.load(contentsOf: URL(fileURLWithPath: other.path)).book
        guard case .illustration(var page) = book.pages[3].content else { Issue.record("page 4 is no illustration"); return }
        page.image = nil
        page.scene = "SCENE-04 Tam under a new moon."
        book.pages[3].content = page.content
        try BookExporter.encode(book).write(to: copy)
        let changed = try await Illustrator.run(bookAt: copy, options: options(.openai, server: server, cache: cache))
        #expect(changed.calls == 1)
        #expect(try server.requests().last.map { $0.prompt.contains("new moon") } == true)
    }

    /// Killed after the journal recorded a picture but before the book did: the journal alone
    /// (with the cache gone) spares the call.
    @Test func journalResumesWithoutTheCache() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("journal")
        let url = try makeBook(pages: 3, in: dir)
        let original = try Data(contentsOf: url)
        _ = try await Illustrator.run(bookAt: url, options: options(.gemini, server: server, cache: dir.appendingPathComponent("cache-1")))
        #expect(try server.requests().count == 4)
        try original.write(to: url)
        let resumed = try await Illustrator.run(bookAt: url, options: options(.gemini, server: server, cache: dir.appendingPathComponent("cache-2")))
        #expect(resumed.calls == 0 && resumed.resumed == 4 && resumed.ready == 4)
        #expect(try server.requests().count == 4)
        #expect(try loadBook(url).pages.allSatisfy { $0.picture?.image != nil })
    }

    @Test func dryRunSendsNothingAndWritesNothing() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("dry")
        let url = try makeBook(pages: 3, in: dir)
        let before = try Data(contentsOf: url)
        let lines = Lines()
        _ = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache"), lines: lines, dryRun: true))
        #expect(try server.requests().isEmpty)
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("book.illustrate.json").path))
        let text = lines.text
        #expect(text.contains("== cover (cover)"))
        #expect(text.contains("== page 3 of 3 (p03)"))
        #expect(text.contains("main character: images/hero.png (image/png"))
        #expect(text.contains("style (first page): page 1 once generated"))
        #expect(text.contains("about $0.016"))
        #expect(text.contains("4 call(s), estimated $0.06"))
        #expect(text.contains("CHARACTER CONSISTENCY GUIDE"))
    }
}
