import Foundation
import Testing
import BookBase
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// --draft: pages and cover as cheap previews first, recorded as drafts; a later run makes them for
/// print from the very character picture the drafts were drawn from.
@Suite struct DraftTests {
    func journal(_ dir: URL) throws -> JournalFile {
        try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: dir.appendingPathComponent("book.illustrate.json")))
    }

    func printOptions(_ server: ProviderServer, _ dir: URL, _ provider: ProviderName = .openai) -> IllustrateOptions {
        var o = options(provider, server: server, cache: dir.appendingPathComponent("cache"))
        o.resolution = .print
        return o
    }

    @Test func draftsAreMadeAgainForPrintFromTheSameCharacterPicture() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("draft-upgrade")
        let url = try makeBook(pages: 3, in: dir, characterImage: false)
        var draft = printOptions(server, dir)
        draft.draft = true
        let first = try await Illustrator.run(bookAt: url, options: draft)
        #expect(first.ready == 5 && first.drafts == 4, "\(first.lines)")
        #expect(first.lines.contains { $0.contains("without --draft") })

        let drafted = try server.requests()
        #expect(drafted.count == 5)
        for r in drafted {
            // The character picture is the reference of every final page: it is made for print at once.
            #expect(r.fields["quality"] == (marker(r.prompt) == "character" ? "high" : "low"), "\(marker(r.prompt)): \(r.fields)")
        }
        var entries = try journal(dir).pages
        #expect(entries["character"]?.state == .ready)
        #expect(entries.filter { $0.key != "character" }.values.allSatisfy { $0.state == .draft }, "\(entries)")
        let status = try IllustrationStatus.read(bookAt: url)
        #expect(status.counts["draft"] == 4 && status.counts["ready"] == 1, "\(status.counts)")

        let book = try loadBook(url)
        let character = try #require(book.characters?.main?.image.flatMap { ref -> String? in if case .path(let p) = ref { p } else { nil } })
        let characterHash = SHA256.hex(try Data(contentsOf: dir.appendingPathComponent(character)))
        let draftImages = book.pages.compactMap { $0.picture?.image }

        let final = try await Illustrator.run(bookAt: url, options: printOptions(server, dir))
        #expect(final.ready == 4 && final.drafts == 0 && final.calls == 4, "\(final.lines)")
        let upgrade = try server.requests().dropFirst(drafted.count)
        #expect(Set(upgrade.map { marker($0.prompt) }) == ["cover", "01", "02", "03"])
        #expect(upgrade.allSatisfy { $0.fields["quality"] == "high" && $0.imageHashes.contains(characterHash) })
        entries = try journal(dir).pages
        #expect(entries.values.allSatisfy { $0.state == .ready && $0.replaces == nil }, "\(entries)")
        let after = try loadBook(url)
        #expect(after.characters?.main?.image == book.characters?.main?.image)
        #expect(after.pages.compactMap { $0.picture?.image }.allSatisfy { !draftImages.contains($0) })

        // Nothing is left to upgrade: a third run calls no one.
        let third = try await Illustrator.run(bookAt: url, options: printOptions(server, dir))
        #expect(third.needed == 0 && third.calls == 0)
    }

    /// The print run after drafts sends what a straight print run sends: the cover goes with the
    /// main character's picture only, never with the draft of page 1, and the other pages with
    /// page 1 as made for print.
    @Test func aPrintRunAfterDraftsSendsNoDraftAsAReference() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("draft-references")
        let url = try makeBook(pages: 3, in: dir)
        var draft = printOptions(server, dir)
        draft.draft = true
        _ = try await Illustrator.run(bookAt: url, options: draft)
        let drafted = try server.requests().count
        let draftBook = try loadBook(url)
        let draftHashes = Set(try draftBook.pages.compactMap { page -> String? in
            guard case .path(let p)? = page.picture?.image else { return nil }
            return SHA256.hex(try Data(contentsOf: dir.appendingPathComponent(p)))
        })
        #expect(draftHashes.count == 3)
        let hero = SHA256.hex(try Data(contentsOf: dir.appendingPathComponent("images/hero.png")))

        _ = try await Illustrator.run(bookAt: url, options: printOptions(server, dir))
        let upgrade = Array(try server.requests().dropFirst(drafted))
        let cover = try #require(upgrade.first { marker($0.prompt) == "cover" })
        #expect(cover.imageHashes == [hero], "the cover went with \(cover.imageHashes), the character is \(hero)")
        guard case .path(let page1)? = try loadBook(url).pages[0].picture?.image else { Issue.record("page 1 has no picture"); return }
        let printed = SHA256.hex(try Data(contentsOf: dir.appendingPathComponent(page1)))
        for r in upgrade { #expect(draftHashes.isDisjoint(with: r.imageHashes), "\(marker(r.prompt)) went with a draft") }
        for r in upgrade where ["02", "03"].contains(marker(r.prompt)) {
            #expect(r.imageHashes == [hero, printed], "\(marker(r.prompt)): \(r.imageHashes)")
        }
    }

    @Test func anUpgradeThatFailsLeavesTheDraftForTheNextRun() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("draft-failed-upgrade")
        let url = try makeBook(pages: 2, in: dir)
        var draft = printOptions(server, dir)
        draft.draft = true
        _ = try await Illustrator.run(bookAt: url, options: draft)
        let draftBook = try loadBook(url)

        let refusal: [String: Any] = ["status": 400, "json": ["error": ["message": "Your request was rejected by the safety system.",
                                                                        "type": "image_generation_user_error", "code": "moderation_blocked"]]]
        try server.script(["rules": [["contains": "SCENE-02", "responses": [refusal]]]])
        let failed = try await Illustrator.run(bookAt: url, options: printOptions(server, dir))
        #expect(failed.failures.count == 1 && failed.ready == 2, "\(failed.lines)")
        // The draft stays in the book (a picture to preview beats a placeholder) and stays marked for replacement.
        let page2 = try #require(journal(dir).pages["p02"])
        #expect(page2.state == .failed)
        #expect(page2.replaces != nil && page2.replaces.map { ImageRef.path($0) } == draftBook.pages[1].picture?.image, "\(page2)")
        #expect(try loadBook(url).pages[1].picture?.image == draftBook.pages[1].picture?.image)

        try server.script([:])
        let again = try await Illustrator.run(bookAt: url, options: printOptions(server, dir))
        #expect(again.needed == 1 && again.ready == 1, "\(again.lines)")
        #expect(try loadBook(url).pages[1].picture?.image != draftBook.pages[1].picture?.image)
        #expect(try journal(dir).pages.values.allSatisfy { $0.state == .ready })
    }

    @Test func aModelWithOnePriceNeedsACheaperDraftModel() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("draft-gemini")
        let url = try makeBook(pages: 2, in: dir, characterImage: false)
        let before = try Data(contentsOf: url)
        var draft = printOptions(server, dir, .gemini)
        draft.draft = true
        await #expect {
            try await Illustrator.run(bookAt: url, options: draft)
        } throws: { "\($0)".contains("--draft-model") && "\($0)".contains(ProviderName.gemini.defaultModel) }
        #expect(try server.requests().isEmpty)
        #expect(try Data(contentsOf: url) == before)

        draft.draftModel = "gemini-draft-test"
        let summary = try await Illustrator.run(bookAt: url, options: draft)
        #expect(summary.drafts == 3, "\(summary.lines)")
        for r in try server.requests() {
            let model = marker(r.prompt) == "character" ? ProviderName.gemini.defaultModel : "gemini-draft-test"
            #expect(r.path.contains("/models/\(model):generateContent"), "\(marker(r.prompt)): \(r.path)")
        }
    }
}
