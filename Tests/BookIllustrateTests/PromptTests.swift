import Foundation
import Testing
import BookModel
import BookConfig
@testable import BookIllustrate
import BookHTTP

@Suite struct PromptTests {
    let jeremy = SecondaryCharacter(name: "Farmer Jeremy", role: "supporting", appearance: Appearance(
        age: "elderly man, approximately 65-70 years old", hair: "short gray hair, slightly balding on top",
        face: "kind wrinkled face with warm smile and rosy cheeks", build: "tall and lean",
        clothing: "red and white checkered flannel shirt, faded blue denim overalls",
        accessories: "weathered straw hat with faded red band", distinctive: "bushy white eyebrows, deep laugh lines"))

    func book(_ secondary: [SecondaryCharacter]) -> Book {
        Book(kind: .storybook, title: "T", artStyle: "Cartoon",
             characters: Characters(main: MainCharacter(name: "Emma", description: "a girl with red boots"), secondary: secondary),
             pages: [Page(id: "a", IllustrationPage(scene: "Emma feeds the ducks."))])
    }

    let job = IllustrationJob(kind: .page, key: "a", pageIndex: 0, scene: "Emma feeds the ducks.",
                              aspect: AspectRatio(width: 8.25, height: 11), label: "page 1 of 1")

    @Test func guideIsRogersFormatWordForWord() {
        let expected = """
        CHARACTER CONSISTENCY GUIDE - Use these EXACT descriptions for secondary characters:

        [FARMER JEREMY]
        • Age: elderly man, approximately 65-70 years old
        • Hair: short gray hair, slightly balding on top
        • Face: kind wrinkled face with warm smile and rosy cheeks
        • Build: tall and lean
        • Clothing: red and white checkered flannel shirt, faded blue denim overalls
        • Accessories: weathered straw hat with faded red band
        • Distinctive: bushy white eyebrows, deep laugh lines

        CRITICAL: These characters MUST look IDENTICAL on every page. Do not change their appearance.
        """
        #expect(PromptBuilder(book: book([jeremy])).consistencyGuide() == expected)
    }

    @Test func optionalGuideLinesOnlyWhenPresent() throws {
        var plain = jeremy
        plain.appearance.accessories = nil
        plain.appearance.distinctive = nil
        let guide = try #require(PromptBuilder(book: book([plain])).consistencyGuide())
        #expect(!guide.contains("Accessories"))
        #expect(!guide.contains("Distinctive"))
        #expect(PromptBuilder(book: book([])).consistencyGuide() == nil)
    }

    @Test func sectionsInOrderAndEachPresent() {
        let sections = PromptBuilder(book: book([jeremy])).sections(for: job, hasCharacterReference: true, hasStyleReference: true)
        #expect(sections.map(\.section) == [.scene, .characters, .consistencyGuide, .styleReference, .artStyle, .aspectRatio, .composition, .noText, .quality])
        let text = Dictionary(uniqueKeysWithValues: sections.map { ($0.section, $0.text) })
        #expect(text[.scene] == "SCENE (page 1 of 1): Emma feeds the ducks.")
        #expect(text[.characters]!.contains("Emma — a girl with red boots"))
        #expect(text[.characters]!.contains("first reference image shows Emma"))
        #expect(text[.styleReference]!.contains("second reference image"))
        #expect(text[.artStyle]!.hasPrefix("ART STYLE: Cartoon"))
        #expect(text[.aspectRatio]!.contains("3:4"))
        #expect(text[.noText]!.contains("Do not draw any text"))
        #expect(text[.quality]!.hasPrefix("QUALITY:"))
    }

    @Test func noStyleSectionWithoutStyleReference() {
        let prompt = PromptBuilder(book: book([])).prompt(for: job, hasCharacterReference: false, hasStyleReference: false)
        #expect(!prompt.contains("STYLE REFERENCE"))
        #expect(!prompt.contains("reference image shows"))
    }

    /// The subtitle the cover shows is said once, whether it is the book's, the cover's, or both.
    @Test(arguments: [("Ducks", nil), (nil, "Ducks"), ("Ducks", "Ducks"), ("Geese", "Ducks")] as [(String?, String?)])
    func coverPromptSaysTheSubtitleOnce(_ bookSubtitle: String?, _ coverSubtitle: String?) throws {
        var b = book([])
        b.subtitle = bookSubtitle
        b.cover = Cover(subtitle: coverSubtitle)
        let cover = try #require(IllustrationPlan(book: b, trim: .default).first.first { $0.kind == .cover })
        let prompt = PromptBuilder(book: b).prompt(for: cover, hasCharacterReference: false, hasStyleReference: false)
        let scene = try #require(prompt.split(separator: "\n\n").first)
        #expect(scene == "SCENE: The front cover illustration of the children's book \"T\". Ducks.", "\(prompt)")
        #expect(prompt.components(separatedBy: "Ducks").count == 2, "\(prompt)")
        #expect(!prompt.contains("Geese"))
    }

    @Test func characterPromptIsRogers() {
        let prompt = PromptBuilder(book: book([])).characterPrompt(aspect: AspectRatio(width: 3, height: 4))
        #expect(prompt.hasPrefix("Create a VERTICAL PORTRAIT-ORIENTED colorful cartoon illustration of this child named Emma for a children's storybook. The illustration should be in 3:4 aspect ratio (portrait orientation). Make it friendly and cheerful with bright, vibrant colors and a simple background. No text or words on the image."))
    }

    @Test func aspectRatiosPerProvider() {
        let trim = TrimSize.default
        let page = AspectRatio(width: trim.width, height: trim.height)
        #expect(page.gemini == "3:4")
        #expect(page.openAISize == "1024x1536")
        let spread = AspectRatio(width: trim.width * 2, height: trim.height)
        #expect(spread.gemini == "3:2")
        #expect(spread.openAISize == "1536x1024")
        #expect(AspectRatio(width: 8.5, height: 8.5).gemini == "1:1")
        #expect(AspectRatio(width: 8.5, height: 8.5).openAISize == "1024x1024")
        #expect(AspectRatio(width: 8, height: 10).gemini == "4:5")
        #expect(AspectRatio(width: 16, height: 9).gemini == "16:9")
    }

    @Test func retryHints() {
        #expect(RetryHint.fromHeaders(["retry-after-ms": "250", "retry-after": "9"]) == 0.25)
        #expect(RetryHint.fromHeaders(["retry-after": "3"]) == 3)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let later = "Tue, 14 Nov 2023 22:13:30 GMT"   // 10 s after `now`
        #expect(abs((RetryHint.fromHeaders(["retry-after": later], now: now) ?? -1) - 10) < 0.01)
        #expect(RetryHint.duration("37s") == 37)
        #expect(RetryHint.duration("0.5s") == 0.5)
        #expect(RetryHint.duration("soon") == nil)
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 60)
        for attempt in 1...4 {
            let d = policy.delay(afterAttempt: attempt, hint: nil)
            let exp = pow(2, Double(attempt - 1))
            #expect(d >= exp / 2 && d <= exp)
        }
        #expect(policy.delay(afterAttempt: 1, hint: 0.3) >= 0.3)
    }

    /// The art leaves room for what the layout puts on it: the words where they are set, the fold
    /// of a spread, the trim at the edges.
    @Test func thePromptSaysWhereTheWordsAndTheFoldWillBe() {
        let pages = [Page(IllustrationPage(text: "Emma feeds the ducks.", scene: "a pond")),
                     Page(SpreadPage(scene: "a wide meadow", leftText: "Left", rightText: "Right")),
                     Page(IllustrationPage(scene: "ducks asleep"))]
        let b = Book(kind: .storybook, title: "Ducks", pages: pages)
        func composition(_ kind: IllustrationJob.Kind, _ index: Int?, _ aspect: AspectRatio) -> String {
            let job = IllustrationJob(kind: kind, key: "k\(index ?? -1)", pageIndex: index, scene: "s", aspect: aspect, label: "l")
            return PromptBuilder(book: b).sections(for: job, hasCharacterReference: false, hasStyleReference: false)
                .first { $0.section == .composition }?.text ?? ""
        }
        let portrait = AspectRatio(width: 3, height: 4), wide = AspectRatio(width: 2, height: 1)
        #expect(composition(.page, 0, portrait).contains("upper third quiet"))
        #expect(composition(.page, 0, portrait).contains("words are set there"))
        #expect(composition(.page, 1, wide).contains("middle tenth") && composition(.page, 1, wide).contains("left or right third"))
        #expect(!composition(.page, 2, portrait).contains("words"), "a picture without words needs no quiet place")
        #expect(composition(.cover, nil, portrait).contains("title is set there"))
        for text in [composition(.page, 0, portrait), composition(.page, 2, portrait), composition(.cover, nil, portrait)] {
            #expect(text.hasPrefix("COMPOSITION:") && text.contains("away from its edges"))
        }
    }
}
