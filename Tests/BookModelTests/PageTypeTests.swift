import Foundation
import Testing
@testable import BookModel

@Suite("A page holds its type's fields")
struct PageTypeTests {
    @Test func eachTypeDecodesToItsOwnPayload() {
        for type in PageType.allCases {
            #expect(type.payloadType.type == type)
            #expect(type.payloadType.init().content.type == type)
        }
    }

    @Test func aFieldOfAnotherTypeIsWarnedAboutAndWrittenBack() throws {
        let loaded = try loadText(bookJSON(pages: #"{"type": "qr", "url": "https://x.org", "caption": "c", "scene": "a hill", "image": "p.jpg"}"#))
        #expect(loaded.book.pages[0].content == .qr(QRPage(url: "https://x.org", caption: "c")))
        #expect(loaded.book.pages[0].picture == nil)
        #expect(loaded.warnings.count == 2, "\(loaded.warnings)")
        #expect(loaded.warnings.contains { $0.contains("$.pages[0].scene: \"scene\" is not used on a qr page (line 1, column 124)") })
        #expect(loaded.warnings.contains { $0.contains("$.pages[0].image: \"image\" is not used on a qr page") })

        let written = try JSONSerialization.jsonObject(with: BookExporter.encode(loaded.book)) as? [String: Any]
        let page = try #require((written?["pages"] as? [[String: Any]])?.first)
        #expect(page as NSDictionary == ["type": "qr", "url": "https://x.org", "caption": "c", "scene": "a hill", "image": "p.jpg"])
    }

    @Test func aFieldOfAnotherTypeMustStillHaveItsKindOfValue() throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: #"{"type": "text", "text": "x", "url": 42}"#)) })
        #expect(error.kind == .schema)
        #expect(error.description.contains("$.pages[0].url: expected a string, found a number (42)"), "\(error)")
    }

    @Test func aPictureIsSetThroughThePagesOwnType() {
        var page = Page(id: "a", SpreadPage(scene: "the sea"))
        page.picture?.image = .path("sea.jpg")
        #expect(page == Page(id: "a", SpreadPage(image: .path("sea.jpg"), scene: "the sea")))
        #expect(page.picture?.generation == PictureGeneration(describedBy: ["the sea"], pagesAcross: 2))

        var text = Page(TextPage(text: "x"))
        text.picture?.image = .path("sea.jpg")
        #expect(text == Page(TextPage(text: "x")), "a text page has no picture to set")
    }
}
