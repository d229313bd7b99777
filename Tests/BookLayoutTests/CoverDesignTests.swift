import Testing
import Foundation
import BookLayout
import BookTestSupport
import BookRenderKit

/// Picture-book covers set as a jacket is: the title large, no card, shadow or rounded panel, and
/// the cover picture's subject whole and uncovered.
@Suite struct CoverDesignTests {
    static let books = ["samples/storybook/book.json", "samples/apps/roger/story.json",
                        "Tests/Goldens/cover/picture-book-photo/book.json", "Tests/Goldens/cover/long-title/book.json",
                        "Tests/Goldens/art-direction/subject-high-under-cover-card/book.json",
                        "Tests/Goldens/themes/token-overrides/book.json"]

    @Test(arguments: books)
    func aPictureBookCoverIsSetAsAJacket(_ file: String) throws {
        let tree = try TestBooks.open(Repository.root.appendingPathComponent(file)).layout()
        let cover = try #require(tree.pages.first)
        #expect(cover.role == .cover)
        for item in cover.items {
            guard case .fill(let fill) = item else { continue }
            #expect(fill.shadow == nil, "a shadow on the cover")
            #expect(fill.cornerRadius == 0, "a rounded panel on the cover")
            // Solid paper, or a veil that fades out: never a translucent card.
            #expect(fill.color.alpha == 1 || fill.fade != nil, "a translucent panel: \(fill.rect)")
        }
        // The subject of the cover picture is seen whole and nothing is set over it.
        for art in cover.art {
            #expect(art.subjectKept >= 0.95 && art.subjectCovered <= 0.04,
                    "\(file): subject kept \(art.subjectKept), covered \(art.subjectCovered)")
        }
        // The title stays large where a big subject or a long title leaves it a band of at most half
        // the cover (the theme's own title is about 3 % there); a sky with room gives it 8 % (below).
        let share = try Self.capShare(cover, height: tree.trim.height)
        #expect(share >= 0.044, "\(file): capitals \(share * 100) % of the cover")
    }

    /// The title's cap height over the cover's height.
    static func capShare(_ cover: PageNode, height: Double) throws -> Double {
        let title = try #require(cover.textBoxes.first { $0.structure == .title })
        let h = try TestFonts.typesetter().layout("H", style: title.layout.style, width: 10_000, alignment: .start, hyphenate: false)
        return try #require(h.lines.first?.ink.height) / height
    }

    /// A night scene with a small figure low on the page and a wide sky: a short title gets
    /// capitals of at least 8 % of the cover's height, a title of twelve words at least 6 % (it
    /// would take more than half the cover at 8 %), both clear of the figure.
    @Test(arguments: [("Moon", 0.08), ("The Night the Little Fox Walked All the Way Home Alone", 0.06)])
    func overAWideSkyTheTitleTakesItsFullSize(_ title: String, _ least: Double) throws {
        let folder = try temporaryDirectory("cover-sky")
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try NightScenes.night(width: 1200, height: 1200, figure: SceneFigure(x: 600, foot: 1120, height: 240), moon: (950, 700))
            .write(to: images.appendingPathComponent("night.png"))
        let json = """
            {"schema": 1, "kind": "storybook", "language": "en", "title": "\(title)", "author": "June Harrow", "theme": "picture-book",
             "format": {"trim": {"width": "8.5in", "height": "8.5in"}},
             "cover": {"photo": "images/night.png"},
             "pages": [{"type": "illustration", "image": "images/night.png", "text": "The end of the day."}]}
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("book.json"))
        let tree = try TestBooks.open(folder.appendingPathComponent("book.json")).layout()
        let cover = try #require(tree.pages.first)
        let share = try Self.capShare(cover, height: tree.trim.height)
        #expect(share >= least, "capitals \(share * 100) % of the cover")
        for art in cover.art { #expect(art.subjectKept >= 0.95 && art.subjectCovered <= 0.04, "\(art.subjectKept) \(art.subjectCovered)") }
    }

    /// Without a cover picture a picture book's cover shows a page's picture: the one with quiet
    /// art above or below its subject for the title, not the earlier one busy all over.
    @Test func withoutACoverPictureThePicturePagesStrongestIsOnTheCover() throws {
        let folder = try temporaryDirectory("cover-pick")
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        // Lanterns hung all over the sky and the ground; then the same night under a quiet sky.
        let lanterns = (0..<60).map { i in
            let x = 40 + (i % 10) * 90, y = i < 30 ? 60 + (i / 10) * 110 : 840 + ((i - 30) / 10) * 110
            return String(format: "fill #%02X%02X30 circle %d,%d %d,%d", 120 + (i * 37) % 130, 60 + (i * 53) % 180, x, y, x + 28, y)
        }.joined(separator: "\n")
        try NightScenes.night(width: 900, height: 1200, figure: SceneFigure(x: 450, foot: 1050, height: 260), extra: lanterns)
            .write(to: images.appendingPathComponent("busy.png"))
        try NightScenes.night(width: 900, height: 1200, figure: SceneFigure(x: 450, foot: 1050, height: 260))
            .write(to: images.appendingPathComponent("whole.png"))
        let json = """
            {"schema": 1, "kind": "storybook", "language": "en", "title": "Mo Goes Out", "theme": "picture-book",
             "pages": [{"type": "illustration", "image": "images/busy.png", "text": "The lanterns were lit."},
                       {"type": "illustration", "image": "images/whole.png", "text": "Then Mo walked home."}]}
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("book.json"))
        let tree = try TestBooks.open(folder.appendingPathComponent("book.json")).layout()
        let cover = try #require(tree.pages.first)
        let pictures = cover.images.map { $0.asset.origin }
        #expect(pictures.count == 1 && pictures[0].contains("whole.png"), "\(pictures)")
        for art in cover.art { #expect(art.subjectKept >= 0.95 && art.subjectCovered <= 0.04) }
    }
}
