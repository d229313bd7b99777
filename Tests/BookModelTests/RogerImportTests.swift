import Foundation
import Testing
@testable import BookModel

@Suite("Roger import")
struct RogerImportTests {
    @Test func aGeneratedStoryBecomesAPictureBook() throws {
        let loaded = try Fixtures.load("apps/roger-story.json")
        let book = loaded.book
        #expect(loaded.source == .roger)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(book.kind == .storybook)
        #expect(book.theme == "picture-book")
        #expect(book.title == "Emma and the Moonlit Farm")
        #expect(book.created == "2024-05-02T12:00:00Z")
        #expect(book.characters?.main == MainCharacter(name: "Emma", image: .inline(TinyImages.purplePNG)))

        // The file lists page 2 first; the book follows pageNumber.
        #expect(book.pages.count == 3)
        #expect(book.pages.allSatisfy { $0.type == .illustration })
        #expect(book.pages.map { ($0.content.payload as? IllustrationPage)?.text } == [
            "Emma could not sleep. The moon was too bright!",
            "Farmer Jeremy waved from the barn.",
            "Biscuit barked at the moon, and Emma laughed.",
        ])
        #expect(book.pages[0].picture?.scene == "A girl looks out of her bedroom window at a huge full moon.")
        #expect(book.pages[0].picture?.image == .inline(TinyImages.redJPEG))
        #expect(book.pages[1].picture?.image == nil, "a page not yet illustrated has no image, only its scene")
        #expect(book.pages[1].picture?.scene == "An old farmer in overalls waves from a red barn at dusk.")
        #expect(book.pages[2].picture?.image == .inline(TinyImages.bluePNG))
    }

    @Test func whatTheAppWritesImportsAsTheFixtureDoes() throws {
        let fixture = try Fixtures.load("apps/roger-story.json")
        let fresh = try loadAsTheAppWritesIt("apps/roger-story.json", as: Roger.GeneratedStory.self)
        #expect(fresh.source == .roger)
        #expect(fresh.book == fixture.book)
        #expect(fresh.warnings == fixture.warnings)
    }

    @Test func theManifestBecomesSecondaryCharacters() throws {
        let secondary = try #require(try Fixtures.load("apps/roger-story.json").book.characters?.secondary)
        #expect(secondary == [
            SecondaryCharacter(name: "Farmer Jeremy", role: "supporting", appearance: Appearance(
                age: "elderly man, approximately 65-70 years old", hair: "short gray hair, slightly balding on top",
                face: "kind wrinkled face with warm smile and rosy cheeks", build: "tall and lean",
                clothing: "red and white checkered flannel shirt, faded blue denim overalls",
                accessories: "weathered straw hat with faded red band", distinctive: "bushy white eyebrows, deep laugh lines")),
            SecondaryCharacter(name: "Biscuit", role: "creature", appearance: Appearance(
                age: "young puppy", hair: "fluffy golden fur", face: "floppy ears and a black nose",
                build: "small and round", clothing: "a blue collar")),
        ])
    }

    @Test func aStoryWithoutCharacterImageOrManifestImports() throws {
        let story = Roger.GeneratedStory(title: "Tiny", characterName: "Max", characterImageData: nil,
                                         characterManifest: .init(characters: []),
                                         pages: [.init(pageNumber: 1, text: "", scene: "A boy and a kite", imageData: nil)],
                                         createdAt: Date(timeIntervalSinceReferenceDate: 60))
        let book = try BookLoader.load(data: try JSONEncoder().encode(story), name: "r.json", folder: URL(fileURLWithPath: "/")).book
        #expect(book.characters == Characters(main: MainCharacter(name: "Max")))
        #expect(book.pages == [Page(IllustrationPage(scene: "A boy and a kite"))])
        #expect(book.created == "2001-01-01T00:01:00Z")
    }

    @Test func aMissingRequiredFieldNamesItsPath() throws {
        let json = #"{"title":"T","characterName":"E","characterManifest":{"characters":[]},"pages":[{"pageNumber":1,"text":"a"}],"createdAt":0}"#
        let error = try #require(loadError { try loadText(json, name: "roger.json") })
        #expect(error.kind == .schema)
        #expect(error.description.hasPrefix("roger.json: $.pages[0]: required field \"scene\" is missing"))
    }
}
