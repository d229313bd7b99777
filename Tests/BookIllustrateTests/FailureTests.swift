import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// Refusals and exhausted credit fail their page at once, leave its placeholder, and the
/// other pages still get their pictures.
@Suite struct FailureTests {
    struct Case: Sendable, CustomStringConvertible {
        var provider: ProviderName
        var name: String
        var response: [String: String]   // JSON-encoded response, decoded in the test
        var reason: String
        var description: String { "\(provider.rawValue) \(name)" }
    }

    static let cases: [Case] = [
        Case(provider: .openai, name: "moderation", response: ["r": #"{"status":400,"json":{"error":{"message":"Your request was rejected by the safety system.","type":"image_generation_user_error","code":"moderation_blocked"}}}"#], reason: "moderation_blocked"),
        Case(provider: .openai, name: "insufficient_quota", response: ["r": #"{"status":429,"headers":{"retry-after":"0"},"json":{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}}"#], reason: "insufficient_quota"),
        Case(provider: .gemini, name: "blockReason", response: ["r": #"{"status":200,"json":{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"}}}"#], reason: "PROHIBITED_CONTENT"),
        Case(provider: .gemini, name: "IMAGE_SAFETY", response: ["r": #"{"status":200,"json":{"candidates":[{"content":{"role":"model"},"finishReason":"IMAGE_SAFETY"}]}}"#], reason: "IMAGE_SAFETY"),
        Case(provider: .gemini, name: "text only", response: ["r": #"{"kind":"noimage"}"#], reason: "no image"),
        Case(provider: .openrouter, name: "402", response: ["r": #"{"status":402,"json":{"error":{"code":402,"message":"Insufficient credits"}}}"#], reason: "Insufficient credits"),
        Case(provider: .openrouter, name: "403 moderation", response: ["r": #"{"status":403,"json":{"error":{"code":403,"message":"flagged","metadata":{"reasons":["violence"],"flagged_input":"…"}}}}"#], reason: "violence"),
        Case(provider: .openrouter, name: "no images", response: ["r": #"{"kind":"noimage"}"#], reason: "no image"),
    ]

    @Test(arguments: cases)
    func failsAtOnceAndLeavesThePlaceholder(_ c: Case) async throws {
        let response = try JSONSerialization.jsonObject(with: Data(c.response["r"]!.utf8))
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [response, response, response]]]])
        let dir = try temporaryDirectory("fail")
        let url = try makeBook(pages: 3, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(c.provider, server: server, cache: dir.appendingPathComponent("cache"), lines: lines))
        let requests = try server.requests()
        #expect(requests.filter { marker($0.prompt) == "02" }.count == 1, "retried")
        #expect(requests.count == 4)
        #expect(summary.failures.count == 1)
        #expect(summary.failures.first?.label == "page 2 of 3")
        #expect(summary.failures.first?.reason.contains(c.reason) == true, "\(summary.failures)")
        let book = try loadBook(url)
        #expect(book.pages[1].picture?.image == nil)
        #expect(book.pages[0].picture?.image != nil && book.pages[2].picture?.image != nil)
        let journal = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: dir.appendingPathComponent("book.illustrate.json")))
        #expect(journal.pages["p02"]?.state == .failed)
        #expect(journal.pages["p02"]?.reason?.contains(c.reason) == true)
        #expect(journal.pages["p03"]?.state == .ready)
        #expect(lines.text.contains("failed: page 2 of 3"))
    }
}
