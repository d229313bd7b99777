import Testing
import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout
import BookTestSupport
import BookRenderKit

/// Print profiles: the printers' tables, and the page geometry they make.
@Suite struct PrintProfileTests {
    func profile(_ name: String) throws -> PrintProfile {
        try PrintProfile.load(named: name, from: Repository.resources.profiles)
    }

    @Test func kdpGutterFollowsItsPageCountTable() throws {
        let kdp = try profile("kdp")
        let expected: [(Int, Double)] = [(24, 0.375), (150, 0.375), (151, 0.5), (300, 0.5), (301, 0.625), (500, 0.625),
                                         (501, 0.75), (700, 0.75), (701, 0.875), (828, 0.875)]
        for (pages, inches) in expected {
            #expect(kdp.gutterMargin(pages: pages)?.inches == inches, "\(pages) pages")
        }
        #expect(kdp.gutterMargin(pages: 829) == nil)
    }

    /// A name is one file in its folder: no path, no hidden file, ASCII letters, digits, '_' and
    /// '-' (and '.' inside a theme's name).
    @Test func profileAndThemeNamesCannotReachOutsideTheirFolder() throws {
        for bad in ["../kdp", "kdp/", "", "kdp.json", "kdp profile", "kdé"] {
            #expect(throws: ConfigError.self, "\(bad)") { try self.profile(bad) }
        }
        for bad in ["../memoir", ".memoir", "", "memoir/x", "mémoir"] {
            #expect(throws: ConfigError.self, "\(bad)") { try Theme.load(named: bad, from: Repository.resources.templates) }
        }
        #expect(try profile("kdp").name == "kdp")
        #expect(try Theme.load(named: "memoir", from: Repository.resources.templates).name == "memoir")
    }

    @Test func spineWidthIsPagesTimesPaperThickness() throws {
        let kdp = try profile("kdp"), lulu = try profile("lulu")
        #expect(abs(try kdp.spineWidth(pages: 100, paper: "white") - 0.2252) < 1e-9)
        #expect(abs(try kdp.spineWidth(pages: 100, paper: "cream") - 0.25) < 1e-9)
        #expect(abs(try kdp.spineWidth(pages: 100, paper: "color") - 0.2347) < 1e-9)
        #expect(abs(try lulu.spineWidth(pages: 444, paper: "white") - 1.06) < 1e-6, "Lulu: pages ÷ 444 + 0.06 in")
        #expect(throws: ConfigError.self) { try kdp.spineWidth(pages: 100, paper: "glossy") }
        #expect(throws: ConfigError.self) { try self.profile("screen").spineWidth(pages: 100, paper: "white") }
    }

    @Test func kdpBleedIsOnTopBottomAndTheOutsideEdgeOnly() throws {
        let g = PrintGeometry(try profile("kdp"))
        let trim = TrimSize.inches(8.25, 11)
        #expect(g.mediaSize(trim: trim) == (603, 810))
        // Left-hand page: bleed on the left (outside); right-hand page: on the right.
        let left = g.boxes(page: 2, trim: trim), right = g.boxes(page: 3, trim: trim)
        #expect(left.trim == [9, 9, 603, 801] && left.bleed == [0, 0, 603, 810])
        #expect(right.trim == [0, 9, 594, 801] && right.bleed == [0, 0, 603, 810])
        let lulu = PrintGeometry(try profile("lulu"))
        #expect(lulu.mediaSize(trim: trim) == (612, 810))
    }

    @Test func fullBleedPicturesReachIntoTheBleedAndTextStaysInTheSafeArea() throws {
        let dir = try temporaryDirectory("bleed")
        try run("convert", ["-size", "300x400", "gradient:red-blue", dir.appendingPathComponent("p.jpg").path])
        let book = Book(kind: .storybook, title: "Bleed", pages: [Page(IllustrationPage(image: .path("p.jpg"), text: "Some words."))]
                        + (0..<3).map { _ in Page(TextPage(text: sampleProse(paragraphs: 3))) })
        let resolved = try TestBooks.document(book, folder: dir, profile: "lulu").resolve()
        let tree = BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        let page = try #require(tree.pages.first { $0.role == .illustration })
        let bleed = tree.geometry.bleedRect(page: page.number, trim: tree.trim)
        #expect(bleed.width > tree.trim.width && bleed.x < 0 && bleed.y < 0)
        let image = try #require(page.images.first)
        // Above the text band the picture covers the bleed on the top and both sides.
        #expect(image.clip.x == bleed.x && image.clip.y == bleed.y && image.clip.width == bleed.width)
        #expect(image.frame.contains(image.clip))
        let safety = 36.0  // Lulu: 0.5 in
        let safe = Rect(x: safety, y: safety, width: tree.trim.width - 2 * safety, height: tree.trim.height - 2 * safety)
        for p in tree.pages {
            for box in p.textBoxes where !box.lines.isEmpty {
                #expect(safe.contains(box.inkBounds, tolerance: 0.5), "page \(p.number): text at \(box.inkBounds) is outside the safe area")
            }
        }
        #expect(tree.pages.count % 2 == 0, "padded to an even page count")
        #expect(tree.pages[0].images.isEmpty, "a print interior opens on a title page, not the cover art")
    }

    @Test func kdpGutterGrowsWithTheBook() throws {
        let book = Book(kind: .memoir, title: "Thick", format: BookFormat(trim: .preset("6x9")),
                        pages: [Page(TextPage(text: sampleProse(paragraphs: 700)))])
        let resolved = try TestBooks.document(book, profile: "kdp").resolve()
        let tree = BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        let kdp = try profile("kdp")
        let wanted = try #require(kdp.gutterMargin(pages: tree.pages.count))
        #expect(tree.pages.count > 150, "the test book must pass the first bracket (\(tree.pages.count) pages)")
        #expect(tree.margins.inner >= wanted.points - 0.001)
        // Text really moved: a right-hand page's text starts at the gutter.
        let right = try #require(tree.pages.first { $0.role == .text && $0.side == .right })
        #expect(abs((right.textBoxes.first?.frame.x ?? 0) - tree.margins.inner) < 0.001)
    }
}
