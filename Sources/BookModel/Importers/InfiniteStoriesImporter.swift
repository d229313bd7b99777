import Foundation

/// InfiniteStories' `Story` → a picture book of one flowing text page. The story has no pages of its
/// own; layout paginates `content`, and the hero's description is there for a cover or illustrations.
/// The story's recording (`audioFileName`, beside the story's file) becomes the book's narration.
enum InfiniteStoriesImporter: AppImporter {
    static let appName = "InfiniteStories"
    static let formatName = "InfiniteStories story"
    static let signature = ["content", "playCount"]

    static func book(from data: Data) throws -> ImportedBook {
        let story = try JSONDecoder().decode(Story.self, from: data)
        let content = story.content.replacingOccurrences(of: "\r\n", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !content.isEmpty else {
            throw ImportFailure(path: PathBuilder().key("content"), message: "the story is empty; there is nothing to print")
        }
        let main = story.hero.flatMap { hero in
            hero.name.nonBlank.map { MainCharacter(name: $0, description: describe(hero)) }
        }
        // The app reads the whole story in one recording, which starts with the story's text.
        let narration = story.audioFileName?.nonBlank.map { Narration(audio: $0, pages: [NarratedPage(page: 1, start: 0)]) }
        let book = Book(kind: .storybook, title: story.title, created: BookDate.format(story.createdAt), theme: "picture-book",
                        characters: main.map { Characters(main: $0) }, pages: [Page(TextPage(text: content))],
                        narration: narration)
        return ImportedBook(book: book, narrationSource: narration == nil ? nil : PathBuilder().key("audioFileName"))
    }

    /// One line a cover designer or an illustration prompt can use as it is.
    static func describe(_ hero: Hero) -> String {
        var parts = ["\(hero.name), \(hero.age) years old."]
        if let appearance = hero.appearance.nonBlank { parts.append("Appearance: \(sentence(appearance))") }
        let traits = hero.traits.compactMap(\.nonBlank)
        if !traits.isEmpty { parts.append("Traits: \(traits.joined(separator: ", ")).") }
        if let ability = hero.specialAbility.nonBlank { parts.append("Special ability: \(sentence(ability))") }
        return parts.joined(separator: " ")
    }

    private static func sentence(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.hasSuffix(".") || t.hasSuffix("!") || t.hasSuffix("?") ? t : t + "."
    }
}

// MARK: the app's persisted shapes

struct Hero: Decodable, Sendable {
    let name: String
    let age: Int
    let appearance: String
    let traits: [String]
    let specialAbility: String
}

private struct Story: Decodable {
    let title: String
    let content: String
    let hero: Hero?
    let audioFileName: String?
    let createdAt: Date
    let playCount: Int
    let isFavorite: Bool
}
