import Foundation
import Testing
import BookModel
import BookResolve
@testable import BookIllustrate
import BookTestSupport

/// A picture counts as made only once it decodes whole: an answer whose data is damaged behind a
/// sound header and end is a failed attempt, and a damaged picture kept by an earlier run (its
/// journal, the cache) is dropped and made again.
@Suite struct BrokenPictureTests {
    static func decodes(_ data: Data) -> Bool {
        guard let info = try? ImageProbe.probe(data) else { return false }
        return (try? ImageCheck.data(data, info: info)) != nil
    }

    static let cases: [(ProviderName, String)] = [ProviderName.openai, .gemini, .openrouter].flatMap { [($0, "png"), ($0, "jpeg")] }

    @Test(arguments: cases)
    func anUndecodableAnswerIsRetriedAndNeverStored(_ provider: ProviderName, _ format: String) async throws {
        let broken: [String: Any] = format == "png" ? ["kind": "corrupt"] : pictureAnswer(try truncatedJPEG(width: 600, height: 800))
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [broken]]]])
        let dir = try temporaryDirectory("broken-\(format)")
        let url = try makeBook(pages: 2, in: dir)
        let cache = dir.appendingPathComponent("cache")
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: cache, lines: lines))
        #expect(summary.failures.isEmpty && summary.ready == 3, "\(summary.lines)")
        #expect(try server.requests().filter { marker($0.prompt) == "02" }.count == 2, "the broken answer was taken as the picture")
        #expect(lines.text.contains("page 2 of 2: \(provider.rawValue) sent a picture that cannot be used: "), "\(lines.text)")
        guard case .path(let image)? = try loadBook(url).pages[1].picture?.image else { Issue.record("page 2 has no picture"); return }
        #expect(Self.decodes(try Data(contentsOf: dir.appendingPathComponent(image))), "\(image) does not decode")
        let cached = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: [.isRegularFileKey])!
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
        #expect(cached.count == 3)
        for file in cached { #expect(Self.decodes(try Data(contentsOf: file)), "\(file.lastPathComponent) in the cache does not decode") }
    }

    /// A picture an earlier run kept, damaged: the journal's file and the cache entry are each
    /// checked when used, and the picture is asked for again.
    @Test func aDamagedPictureFromAnEarlierRunIsMadeAgain() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("broken-kept")
        let url = try makeBook(pages: 2, in: dir)
        let cache = dir.appendingPathComponent("cache")
        _ = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: cache))
        #expect(try server.requests().count == 3)

        let journal = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: dir.appendingPathComponent("book.illustrate.json")))
        let entry = try #require(journal.pages["p02"])
        let address = try #require(entry.request)
        let image = try #require(entry.image)
        let damaged = undecodablePNG(width: 864, height: 1184)
        try damaged.write(to: dir.appendingPathComponent(image))
        try damaged.write(to: cache.appendingPathComponent(String(address.prefix(2))).appendingPathComponent(address))
        // The user takes the broken picture out of the book.
        var book = try loadBook(url)
        guard case .illustration(var page) = book.pages[1].content else { Issue.record("page 2 is no illustration"); return }
        page.image = nil
        book.pages[1].content = page.content
        try BookExporter.encode(book).write(to: url)

        let lines = Lines()
        let again = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: cache, lines: lines))
        #expect(again.calls == 1 && again.ready == 1 && again.resumed == 0 && again.cacheHits == 0, "\(again.lines)")
        #expect(lines.text.contains("\(image), made by an earlier run, is not a usable picture"), "\(lines.text)")
        #expect(lines.text.contains("the cached picture is not a usable picture"), "\(lines.text)")
        guard case .path(let remade)? = try loadBook(url).pages[1].picture?.image else { Issue.record("page 2 has no picture"); return }
        #expect(Self.decodes(try Data(contentsOf: dir.appendingPathComponent(remade))))
        let entryNow = try #require(try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: dir.appendingPathComponent("book.illustrate.json"))).pages["p02"])
        let cachedNow = try Data(contentsOf: cache.appendingPathComponent(String(address.prefix(2))).appendingPathComponent(address))
        #expect(entryNow.request == address && Self.decodes(cachedNow), "the cache still holds the damaged picture")
    }
}
