import Foundation

/// Roger's `GeneratedStory` → a picture book. Pages not yet illustrated keep their `scene`, so the
/// generation step (or a placeholder) can fill them.
enum RogerImporter: AppImporter {
    static let appName = "Roger"
    static let formatName = "Roger story"
    static let signature = ["characterManifest", "pages"]

    static func book(from data: Data) throws -> ImportedBook {
        let story = try JSONDecoder().decode(GeneratedStory.self, from: data)
        var warnings: [PathIssue] = []
        let root = PathBuilder()
        guard !story.pages.isEmpty else {
            throw ImportFailure(path: root.key("pages"), message: "the story has no pages; there is nothing to print")
        }

        var seen: [Int: Int] = [:]
        // Stable sort: pages with the same number stay in the order the app wrote them.
        let ordered = story.pages.enumerated().sorted { ($0.element.pageNumber, $0.offset) < ($1.element.pageNumber, $1.offset) }
        var pages: [Page] = []
        for (i, page) in ordered {
            let path = root.key("pages").index(i)
            if let earlier = seen[page.pageNumber] {
                warnings.append(PathIssue(path: path.key("pageNumber"),
                    message: "page number \(page.pageNumber) is also used by $.pages[\(earlier)]; both are kept, in file order"))
            }
            seen[page.pageNumber] = seen[page.pageNumber] ?? i
            let converted = IllustrationPage(image: page.imageData?.nonEmpty.map(ImageRef.inline),
                                             text: page.text.nonBlank, scene: page.scene.nonBlank)
            guard converted.image != nil || converted.text != nil || converted.scene != nil else {
                warnings.append(PathIssue(path: path, message: "page \(page.pageNumber) has no text, scene or image; skipped"))
                continue
            }
            pages.append(Page(converted))
        }

        let secondary = story.characterManifest.characters.map { c in
            SecondaryCharacter(name: c.name, role: c.role.nonBlank, appearance: Appearance(
                age: c.appearance.ageDescription.nonBlank, hair: c.appearance.hairDescription.nonBlank,
                face: c.appearance.faceDescription.nonBlank, build: c.appearance.buildDescription.nonBlank,
                clothing: c.appearance.clothingDescription.nonBlank,
                accessories: c.appearance.accessoriesDescription?.nonBlank,
                distinctive: c.appearance.distinctiveFeatures?.nonBlank))
        }
        let main = story.characterName.nonBlank.map {
            MainCharacter(name: $0, image: story.characterImageData?.nonEmpty.map(ImageRef.inline))
        }
        let characters = Characters(main: main, secondary: secondary.isEmpty ? nil : secondary)
        let book = Book(kind: .storybook, title: story.title, created: BookDate.format(story.createdAt), theme: "picture-book",
                        characters: characters.main == nil && characters.secondary == nil ? nil : characters, pages: pages)
        return ImportedBook(book: book, warnings: warnings)
    }
}

// MARK: the app's persisted shapes

private struct GeneratedStory: Decodable {
    let title: String
    let characterName: String
    let characterImageData: Data?
    let characterManifest: CharacterManifest
    let pages: [GeneratedPage]
    let createdAt: Date
}

private struct GeneratedPage: Decodable {
    let pageNumber: Int
    let text: String
    let scene: String
    let imageData: Data?
}

private struct CharacterManifest: Decodable {
    let characters: [ManifestCharacter]
}

private struct ManifestCharacter: Decodable {
    let name: String
    let role: String
    let appearance: CharacterAppearance
}

private struct CharacterAppearance: Decodable {
    let ageDescription: String
    let hairDescription: String
    let faceDescription: String
    let buildDescription: String
    let clothingDescription: String
    let accessoriesDescription: String?
    let distinctiveFeatures: String?
}
