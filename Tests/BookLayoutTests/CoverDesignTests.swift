import Testing
import Foundation
@testable import BookLayout
import BookConfig
import BookTestSupport
import BookRenderKit

/// Picture-book covers set as a jacket is: the title large, no card, shadow or rounded panel, and
/// the cover picture's subject whole and uncovered.
@Suite struct CoverDesignTests {
    static let books = ["samples/storybook/book.json", "samples/apps/roger/story.json",
                        "Tests/Goldens/cover/picture-book-photo/book.json", "Tests/Goldens/cover/long-title/book.json",
                        "Tests/Goldens/art-direction/subject-high-under-cover-card/book.json",
                        "Tests/Goldens/themes/token-overrides/book.json"]

    @Test(arguments: books, [nil] + pictureBookThemes)
    func aPictureBookCoverIsSetAsAJacket(_ file: String, _ theme: String?) throws {
        let tree = try BookDocument.open(Repository.root.appendingPathComponent(file), settings: TestBooks.settings(theme: theme)).layout()
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
        // The title's capitals take 8 % of the cover (the theme's own title is about 3 %), in the
        // theme's condensed face where its own face would not reach that (a long word, a dozen
        // words).
        let share = try Self.capShare(cover, height: tree.trim.height)
        #expect(share >= 0.0799, "\(file), \(theme ?? "its theme"): capitals \(share * 100) % of the cover")
    }

    /// The texts of each two text boxes on the page whose ink overlaps.
    static func wordsRunningIntoEachOther(_ page: PageNode) -> [(String, String)] {
        let boxes = page.textBoxes
        return boxes.indices.flatMap { i in
            boxes[(i + 1)...].filter { boxes[i].inkBounds.intersection($0.inkBounds).width > 0 }.map { (boxes[i].text, $0.text) }
        }
    }

    /// How much of the cover's height the tallest picture on it takes.
    static func plateShare(_ cover: PageNode, trim: TrimSize) -> Double {
        (cover.images.map { $0.clip.intersection(Rect(x: 0, y: 0, width: trim.width, height: trim.height)).height }.max() ?? 0) / trim.height
    }

    /// A title set under 8 % for a picture beside it: the picture has the least share it keeps
    /// (a fifth less a little beside a title in the theme's condensed face, a quarter beside one
    /// in its own face), and not much more (the title gave up no more size than that took).
    static func titleMadeRoom(_ plate: Double) -> Bool { plate >= FullBleedTitle.leastCondensedPlate - 0.001 && plate <= 0.4 }

    /// Where the scene's figure (its box in the picture's pixels) lands on the page, within what
    /// is shown of the picture: nil when the picture is not one of `scene`'s.
    static func figureOnPage(_ cover: PageNode, scene: String, figure: SceneFigure, pixels: (width: Double, height: Double)) -> Rect? {
        guard let image = cover.images.first(where: { $0.asset.origin.hasSuffix(scene) }) else { return nil }
        let b = figure.box, f = image.frame
        let rect = Rect(x: f.x + b.x / pixels.width * f.width, y: f.y + b.y / pixels.height * f.height,
                        width: b.width / pixels.width * f.width, height: b.height / pixels.height * f.height)
        return rect.intersection(image.clip)
    }

    /// The title's cap height over the cover's height.
    static func capShare(_ cover: PageNode, height: Double) throws -> Double {
        let title = try #require(cover.textBoxes.first { $0.structure == .title })
        let h = try TestFonts.typesetter().layout("H", style: title.layout.style, width: 10_000, alignment: .start, hyphenate: false)
        return try #require(h.lines.first?.ink.height) / height
    }

    /// A night scene with a small figure low on the page and a wide sky: a short title and a title
    /// of twelve words get capitals of at least 8 % of the cover's height, clear of the figure.
    @Test(arguments: [("Moon", 0.0799), ("The Night the Little Fox Walked All the Way Home Alone", 0.0799)])
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

    static let pictureBookThemes = Theme.available(in: Repository.resources.templates).filter {
        (try? Theme.load(named: $0, from: Repository.resources.templates).kind) == .storybook
    }

    /// Every picture-book theme, at a square, four portrait, the default and a landscape trim,
    /// with a one-, six- and twelve-word title, over a small figure under a wide sky, a figure that
    /// fills its picture, a figure high in its picture, and no picture at all: the title's
    /// capitals take at least 8 % of the cover's height (a long title in the theme's condensed
    /// face), no words run into others or into the figure as it is drawn, the subject is whole and
    /// uncovered, a short title keeps the theme's own face, and nothing is a card.
    @Test(arguments: pictureBookThemes)
    func everyPictureBookThemeSetsItsTitleAsAJacket(_ theme: String) throws {
        let folder = try temporaryDirectory("cover-\(theme)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each scene's figure, and the picture's size in pixels, for where it is drawn on a cover.
        let figures = ["sky.png": (SceneFigure(x: 600, foot: 1120, height: 240), (1200.0, 1200.0)),
                       "close.png": (SceneFigure(x: 450, foot: 1170, height: 1000), (900.0, 1200.0)),
                       "high.png": (SceneFigure(x: 600, foot: 520, height: 440), (1200.0, 900.0))]
        for (name, (figure, pixels)) in figures {
            try NightScenes.night(width: Int(pixels.0), height: Int(pixels.1), figure: figure, moon: name == "sky.png" ? (950, 700) : nil)
                .write(to: folder.appendingPathComponent(name))
        }
        let titles = ["Moon", "The Night the Little Red Fox Walked All the Way Home Alone",
                      "Luna and the Festival of Lights"]
        let trims: [String?] = [nil, "8.5in/8.5in", "8in/10in", "7.5in/10in", "8.5in/11in", "6in/9in", "11in/8.5in"]
        let themeFace = try Theme.load(named: theme, from: Repository.resources.templates).tokens(overriddenBy: nil).typography.title.family
        for picture in ["sky.png", "close.png", "high.png", nil] {
            for trim in trims {
                for title in titles {
                    let format = trim.map { t -> String in
                        let p = t.split(separator: "/")
                        return "\"format\": {\"trim\": {\"width\": \"\(p[0])\", \"height\": \"\(p[1])\"}},"
                    } ?? ""
                    let cover = picture.map { "\"cover\": {\"photo\": \"\($0)\"}," } ?? ""
                    let page = picture.map { "\"image\": \"\($0)\", " } ?? ""
                    let json = """
                        {"schema": 1, "kind": "storybook", "language": "en", "title": "\(title)", "subtitle": "A bedtime story",
                         "author": "June Harrow", "theme": "\(theme)", \(format) \(cover)
                         "characters": {"main": {"name": "Pip"}},
                         "pages": [{"type": "illustration", \(page) "text": "The end of the day."}]}
                        """
                    let file = folder.appendingPathComponent("book.json")
                    try Data(json.utf8).write(to: file)
                    let tree = try TestBooks.open(file).layout()
                    let at = "\(theme), \(picture ?? "no picture"), \(trim ?? "default trim"), \(title.split(separator: " ").count) word(s)"
                    let cover_ = try #require(tree.pages.first)
                    let share = try Self.capShare(cover_, height: tree.trim.height)
                    #expect(share >= 0.0799, "\(at): capitals \(share * 100) % of the cover beside a picture \(Self.plateShare(cover_, trim: tree.trim) * 100) % of it")
                    let titleBox = try #require(cover_.textBoxes.first { $0.structure == .title })
                    if title.count < 40 {
                        #expect(titleBox.layout.style.family == themeFace, "\(at): a short title set in \(titleBox.layout.style.family)")
                    }
                    if let picture, let (figure, pixels) = figures[picture],
                       let drawn = Self.figureOnPage(cover_, scene: picture, figure: figure, pixels: pixels) {
                        for box in cover_.textBoxes where box.inkBounds.intersection(drawn).width > 0 && box.inkBounds.intersection(drawn).height > 0 {
                            Issue.record("\(at): \"\(box.text.prefix(30))\" is set over the figure \(drawn)")
                        }
                    }
                    for art in cover_.art {
                        #expect(art.subjectKept >= 0.95 && art.subjectCovered <= 0.04, "\(at): subject kept \(art.subjectKept), covered \(art.subjectCovered)")
                    }
                    // No words set into other words (a title too long for its room goes smaller).
                    for (a, b) in Self.wordsRunningIntoEachOther(cover_) { Issue.record("\(at): \"\(a)\" runs into \"\(b)\"") }
                    #expect(picture == nil || !cover_.images.isEmpty, "\(at): the picture is left off")
                    for item in cover_.items {
                        guard case .fill(let fill) = item else { continue }
                        #expect(fill.shadow == nil && fill.cornerRadius == 0 && (fill.color.alpha == 1 || fill.fade != nil), "\(at): a card \(fill.rect)")
                    }
                }
            }
        }
    }

    /// A long title takes the theme's condensed face only where the font set has it: a book whose
    /// tokens name a face the set lacks keeps the theme's own face (set smaller), not the default
    /// face the unknown name would fall to.
    @Test func anUnknownCondensedFaceIsNotUsed() throws {
        let folder = try temporaryDirectory("cover-condensed")
        defer { try? FileManager.default.removeItem(at: folder) }
        func titleFamily(_ tokens: String) throws -> String {
            let json = """
                {"schema": 1, "kind": "storybook", "language": "en", "theme": "picture-book", \(tokens)
                 "format": {"trim": {"width": "6in", "height": "9in"}},
                 "title": "The Night the Little Red Fox Walked All the Way Home Alone", "author": "June Harrow",
                 "pages": [{"type": "text", "text": "The end of the day."}]}
                """
            try Data(json.utf8).write(to: folder.appendingPathComponent("book.json"))
            let cover = try #require(try TestBooks.open(folder.appendingPathComponent("book.json")).layout().pages.first)
            return try #require(cover.textBoxes.first { $0.structure == .title }).layout.style.family
        }
        #expect(try titleFamily("") == "Yanone Kaffeesatz")
        #expect(try titleFamily(#""tokens": {"typography": {"title": {"condensed": {"family": "No Such Face"}}}},"#) == "Andika")
    }

    /// Twelve long words (a line of two of them is wider than the measure at 8 %, so the title
    /// takes six lines) or twenty words are more than a 6 × 9 in cover can set at 8 % beside a
    /// picture: the title gives up size only once the picture beside it is at its least share,
    /// stays a title (5 % of the cover or more), and runs into nothing.
    @Test(arguments: pictureBookThemes, ["When the Lighthouse Keeper's Daughter Found the Sea Dragon's Lost Egg",
                                         "How the Very Small Red Fox Who Lived Under the Old Oak Tree Walked All the Long Way Home Alone"])
    func aTitleTooLongForItsShareGivesUpSizeOnlyOnceThePictureIsAtItsLeast(_ theme: String, _ title: String) throws {
        let (tree, cover) = try Self.closeUpCover(theme: theme, title: title, trim: ("6in", "9in"))
        let share = try Self.capShare(cover, height: tree.trim.height), plate = Self.plateShare(cover, trim: tree.trim)
        #expect(share >= 0.0799 || Self.titleMadeRoom(plate), "\(theme): capitals \(share * 100) % beside a picture \(plate * 100) % of the cover")
        #expect(share >= 0.05, "\(theme): capitals \(share * 100) % of the cover")
        for (a, b) in Self.wordsRunningIntoEachOther(cover) { Issue.record("\(theme): \"\(a)\" runs into \"\(b)\"") }
        for art in cover.art { #expect(art.subjectKept >= 0.95 && art.subjectCovered <= 0.04, "\(theme): subject kept \(art.subjectKept)") }
    }

    /// On a pocket-sized trim a long title beside a close-up would leave no room for the picture:
    /// the title is set smaller, down to the theme's least size, and the picture stays on the
    /// cover (it was once left off there).
    @Test(arguments: pictureBookThemes)
    func onATinyTrimTheCoverKeepsItsPicture(_ theme: String) throws {
        let (_, cover) = try Self.closeUpCover(theme: theme, title: "The Night the Little Red Fox Walked All the Way Home Alone",
                                               trim: ("4in", "5.333in"))
        #expect(cover.images.contains { $0.asset.origin.contains("close.png") }, "\(theme): the picture is left off")
        for (a, b) in Self.wordsRunningIntoEachOther(cover) { Issue.record("\(theme): \"\(a)\" runs into \"\(b)\"") }
    }

    /// A book in `theme` at `trim` whose cover and one page show a close-up (a figure that fills
    /// its picture), laid out: the tree and its cover.
    static func closeUpCover(theme: String, title: String, trim: (width: String, height: String)) throws -> (PageTree, PageNode) {
        let folder = try temporaryDirectory("cover-close-\(theme)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try NightScenes.night(width: 900, height: 1200, figure: SceneFigure(x: 450, foot: 1170, height: 1000))
            .write(to: folder.appendingPathComponent("close.png"))
        let json = """
            {"schema": 1, "kind": "storybook", "language": "en", "title": "\(title)",
             "subtitle": "A bedtime story", "author": "June Harrow", "theme": "\(theme)",
             "format": {"trim": {"width": "\(trim.width)", "height": "\(trim.height)"}}, "cover": {"photo": "close.png"},
             "pages": [{"type": "illustration", "image": "close.png", "text": "The end of the day."}]}
            """
        try Data(json.utf8).write(to: folder.appendingPathComponent("book.json"))
        let tree = try TestBooks.open(folder.appendingPathComponent("book.json")).layout()
        return (tree, try #require(tree.pages.first))
    }
}
