import Foundation
import Testing
import BookBase
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// The main character's picture goes with every page: when it cannot be had, no page is paid for
/// unless --no-reference says so, and a page made without it is never taken as done.
@Suite struct ReferenceTests {
    static let characterPrompt = "PORTRAIT-ORIENTED colorful cartoon"

    static let failures: [String] = [
        #"{"status":400,"json":{"error":{"message":"Your request was rejected by the safety system.","type":"image_generation_user_error","code":"moderation_blocked"}}}"#,
        #"{"status":500,"json":{"error":{"message":"The server had an error","type":"server_error"}}}"#,
    ]

    @Test(arguments: failures)
    func characterThatCannotBeMadeStopsBeforeAnyPage(_ failure: String) async throws {
        let response = try JSONSerialization.jsonObject(with: Data(failure.utf8))
        let server = try ProviderServer(["rules": [["contains": Self.characterPrompt, "responses": Array(repeating: response, count: 6)]]])
        let dir = try temporaryDirectory("ref-made")
        let url = try makeBook(pages: 3, in: dir, characterImage: false)
        let before = try Data(contentsOf: url)
        await #expect {
            try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache")))
        } throws: { error in
            let text = "\(error)"
            return text.contains("main character Tam") && text.contains("--no-reference") && text.contains("no page was requested")
        }
        let requests = try server.requests()
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { marker($0.prompt) == "character" }, "\(requests.map { marker($0.prompt) })")
        #expect(try Data(contentsOf: url) == before)
        let journal = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: dir.appendingPathComponent("book.illustrate.json")))
        #expect(!journal.pages.values.contains { $0.state == .ready || $0.state == .unreferenced })
    }

    @Test func namedCharacterPictureThatIsMissingStopsBeforeAnyCall() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("ref-missing")
        let url = try makeBook(pages: 3, in: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("images/hero.png"))
        for dryRun in [false, true] {
            await #expect {
                try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache"), dryRun: dryRun))
            } throws: { error in
                let text = "\(error)"
                return text.contains("main character Tam") && text.contains("images/hero.png") && text.contains("does not exist")
                    && text.contains("--no-reference")
            }
        }
        #expect(try server.requests().isEmpty)
        #expect(try loadBook(url).pages.allSatisfy { $0.picture?.image == nil })
    }

    @Test func noReferenceGoesOnButAPageMadeSoIsMadeAgainOnceThePictureIsBack() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("ref-none")
        let url = try makeBook(pages: 3, in: dir)
        let hero = try Data(contentsOf: dir.appendingPathComponent("images/hero.png"))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("images/hero.png"))
        var first = options(.openai, server: server, cache: dir.appendingPathComponent("cache"))
        first.noReference = true
        let summary = try await Illustrator.run(bookAt: url, options: first)
        #expect(summary.ready == 4)
        let journalURL = dir.appendingPathComponent("book.illustrate.json")
        var journal = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: journalURL))
        #expect(journal.pages.count == 4)
        #expect(journal.pages.values.allSatisfy { $0.state == .unreferenced }, "\(journal.pages)")
        let firstCalls = try server.requests().count
        #expect(firstCalls == 4)

        try hero.write(to: dir.appendingPathComponent("images/hero.png"))
        _ = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache")))
        let again = try server.requests().dropFirst(firstCalls)
        #expect(Set(again.map { marker($0.prompt) }) == ["cover", "01", "02", "03"])
        #expect(again.allSatisfy { $0.imageHashes.contains(SHA256.hex(hero)) })
        journal = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: journalURL))
        #expect(journal.pages.values.allSatisfy { $0.state == .ready }, "\(journal.pages)")
    }
}
