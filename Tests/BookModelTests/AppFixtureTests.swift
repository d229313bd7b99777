import Foundation
import Testing
@testable import BookModel

@Suite("App fixtures are what the apps write")
struct AppFixtureTests {
    /// Decoding a fixture with the app's own types and encoding it again with `JSONEncoder()` gives the
    /// same JSON: the fixture holds nothing an app would not write, in the encodings it uses.
    @Test("decode with the app's types, re-encode, compare", arguments: [
        "apps/memoirai-storybook.json", "apps/roger-story.json", "apps/infinitestories-story.json",
    ])
    func fixtureIsTheAppsEncoding(file: String) throws {
        let data = try Fixtures.data(file)
        let reencoded: Data
        switch BookLoader.detectFormat(of: data) {
        case .memoirAI?: reencoded = try JSONEncoder().encode(JSONDecoder().decode(MemoirAI.PersistableStorybook.self, from: data))
        case .roger?: reencoded = try JSONEncoder().encode(JSONDecoder().decode(Roger.GeneratedStory.self, from: data))
        case .infiniteStories?: reencoded = try JSONEncoder().encode(JSONDecoder().decode(InfiniteStories.Story.self, from: data))
        default: Issue.record("\(file) is no app file"); return
        }
        let a = try JSONSerialization.jsonObject(with: data) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: reencoded) as? NSDictionary
        #expect(a != nil && a == b)
        // JSONEncoder's defaults show in the bytes: escaped slashes in base64 and URLs, no pretty printing.
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("\n"))
        if text.contains("Data\"") { #expect(text.contains("\\/")) }
    }

    @Test func theAppsDateEncodingIsSecondsSince2001() throws {
        let data = try JSONEncoder().encode(["d": Date(timeIntervalSince1970: 1_714_564_800)])
        #expect(String(decoding: data, as: UTF8.self) == #"{"d":736257600}"#)
    }

    @Test func theAppsEnumEncodingIsCaseNameOverLabels() throws {
        let item = MemoirAI.PersistablePageItem.qrCode(id: UUID(uuidString: "9F1C6E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")!,
                                                       url: URL(string: "https://x.org/a")!)
        let text = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        #expect(text.hasPrefix(#"{"qrCode":{"#))
        #expect(text.contains(#""id":"9F1C6E2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B""#))
        #expect(text.contains(#""url":"https:\/\/x.org\/a""#))
    }
}
