import Testing
import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout
import BookTestSupport
import BookRenderKit

/// Print profiles: what a profile does to a laid-out book. Every expectation is read from the
/// profile itself, so the tests hold for every profile in templates/profiles and for any change
/// to their figures.
@Suite struct PrintProfileTests {
    static let names = PrintProfile.available(in: Repository.resources.profiles)

    func profile(_ name: String) throws -> PrintProfile {
        try PrintProfile.load(named: name, from: Repository.resources.profiles)
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

    @Test func everyProfileInTheFolderLoads() throws {
        #expect(Self.names.count >= 2)
        for name in Self.names { #expect(try profile(name).name == name) }
    }

    /// The gutter is the first bracket whose page limit the book stays within; past the table's
    /// last bracket there is none.
    @Test(arguments: names) func gutterIsTheFirstBracketTheBookFits(_ name: String) throws {
        let p = try profile(name)
        guard let table = p.gutter else {
            #expect(p.gutterMargin(pages: 100) == nil)
            return
        }
        #expect(table.map(\.maxPages) == table.map(\.maxPages).sorted(), "brackets in page order")
        var below = 0
        for bracket in table {
            for pages in [below + 1, bracket.maxPages] { #expect(p.gutterMargin(pages: pages) == bracket.margin, "\(pages) pages") }
            below = bracket.maxPages
        }
        #expect(p.gutterMargin(pages: below + 1) == nil)
    }

    /// Paper adds up page by page; a paper or a profile without a figure is an error, not a guess.
    @Test(arguments: names) func spineWidthGrowsByThePapersThicknessPerPage(_ name: String) throws {
        let p = try profile(name)
        guard let spine = p.spine else {
            #expect(throws: ConfigError.self) { try p.spineWidth(pages: 100, paper: "white") }
            return
        }
        for (paper, thickness) in spine.perPage {
            let a = try p.spineWidth(pages: 100, paper: paper), b = try p.spineWidth(pages: 101, paper: paper)
            #expect(abs(b - a - thickness) < 1e-9, "\(paper)")
            #expect(abs(a - 100 * thickness - spine.baseInches) < 1e-9, "\(paper)")
        }
        #expect(throws: ConfigError.self) { try p.spineWidth(pages: 100, paper: "no such paper") }
    }

    /// A picture book laid out for the profile: a cover photo, a full-bleed illustration, then
    /// `texts` text pages (flowing prose unless told otherwise).
    func pictureBook(_ name: String, texts: [String] = (1...3).map { sampleProse(paragraphs: 3, seed: UInt64($0)) }) throws -> PageTree {
        let dir = try temporaryDirectory("profile-\(name)")
        try run("convert", ["-size", "300x400", "gradient:red-blue", dir.appendingPathComponent("p.jpg").path])
        let book = Book(kind: .storybook, title: "Bleed", cover: Cover(title: "Bleed", photo: .path("p.jpg")),
                        pages: [Page(IllustrationPage(image: .path("p.jpg"), text: "Some words."))]
                            + texts.map { Page(TextPage(text: $0)) })
        let resolved = try TestBooks.document(book, folder: dir, profile: name).resolve()
        return BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
    }

    /// Bleed where the profile puts it: top and bottom, the outside edge (left on a left-hand
    /// page) and the binding edge, each as wide as the profile says; the PDF page holds the
    /// bleed and the marks' margin, the same size for every page.
    @Test(arguments: names) func bleedIsOnTheEdgesTheProfileNames(_ name: String) throws {
        let p = try profile(name)
        let tree = try pictureBook(name)
        let g = tree.geometry, trim = tree.trim
        let (top, bottom, inner, outer) = (p.bleed.top.points, p.bleed.bottom.points, p.bleed.inner.points, p.bleed.outer.points)
        let media = g.mediaSize(trim: trim)
        #expect(abs(media.width - (trim.width + inner + outer + 2 * p.marks.margin.points)) < 1e-9)
        #expect(abs(media.height - (trim.height + top + bottom + 2 * p.marks.margin.points)) < 1e-9)
        for page in tree.pages {
            let (left, right) = page.side == .left ? (outer, inner) : (inner, outer)
            let bleed = g.bleedRect(page: page.number, trim: trim)
            #expect(bleed == Rect(x: -left, y: -top, width: trim.width + left + right, height: trim.height + top + bottom), "page \(page.number)")
            // The same in the PDF's boxes: the trim box sits inside the bleed box by those amounts.
            let boxes = g.boxes(page: page.number, trim: trim)
            #expect(abs(boxes.trim[0] - boxes.bleed[0] - left) < 1e-9 && abs(boxes.bleed[2] - boxes.trim[2] - right) < 1e-9, "page \(page.number)")
            #expect(abs(boxes.trim[1] - boxes.bleed[1] - bottom) < 1e-9 && abs(boxes.bleed[3] - boxes.trim[3] - top) < 1e-9, "page \(page.number)")
            #expect(boxes.bleed[0] >= -1e-9 && boxes.bleed[2] <= media.width + 1e-9, "page \(page.number): the bleed fits on the PDF page")
        }
        // A full-bleed picture reaches into the bleed on the top and both sides.
        let page = try #require(tree.pages.first { $0.role == .illustration })
        let image = try #require(page.images.first)
        let bleed = g.bleedRect(page: page.number, trim: trim)
        #expect(image.clip.x == bleed.x && image.clip.y == bleed.y && image.clip.width == bleed.width, "\(image.clip) in \(bleed)")
        #expect(image.frame.contains(image.clip))
    }

    /// Nothing a reader should see comes closer to the trim than the profile's safety distance:
    /// body text, captions and the folios. (A proof's slug line is a printer's mark, outside the bleed.)
    @Test(arguments: names) func textAndFoliosStayInTheSafeArea(_ name: String) throws {
        let p = try profile(name)
        let tree = try pictureBook(name)
        let safety = p.safety.points
        let safe = Rect(x: safety, y: safety, width: tree.trim.width - 2 * safety, height: tree.trim.height - 2 * safety)
        var folios = 0
        for page in tree.pages {
            let bleed = tree.geometry.bleedRect(page: page.number, trim: tree.trim)
            for box in page.textBoxes where !box.lines.isEmpty && !(p.marks.slug && box.frame.y > bleed.maxY) {
                #expect(safe.contains(box.inkBounds, tolerance: 0.5), "page \(page.number): \(box.text) at \(box.inkBounds) is outside \(safe)")
                if box.text == String(page.number) { folios += 1 }
            }
        }
        #expect(folios > 0, "the text pages carry folios")
        // The margins the text was set in are the profile's at least.
        let outside = max(safety, p.minOutsideMargin?.points ?? 0)
        #expect(tree.margins.top >= outside && tree.margins.bottom >= outside && tree.margins.outer >= outside)
        #expect(tree.margins.inner >= safety)
    }

    /// The page count is padded with blank pages at the end to the printer's multiple, and the
    /// padding is reported.
    @Test(arguments: names) func pageCountIsPaddedToTheMultiple(_ name: String) throws {
        let p = try profile(name)
        var padded = false
        // One short text page more each time: page counts one apart.
        for textPages in 1...3 {
            let tree = try pictureBook(name, texts: Array(repeating: "A page of its own.", count: textPages))
            #expect(tree.pages.count % max(1, p.pages.multiple) == 0, "\(tree.pages.count) pages")
            let added = tree.findings.filter { $0.kind == .blankPageInserted }.flatMap(\.physicalPages)
            if !added.isEmpty {
                padded = true
                #expect(added == Array((tree.pages.count - added.count + 1)...tree.pages.count), "padding goes at the end")
                #expect(added.allSatisfy { tree.pages[$0 - 1].role == .blank && tree.pages[$0 - 1].images.isEmpty })
                #expect(added.count < p.pages.multiple)
            }
        }
        // Of counts one apart, some need padding whenever the multiple is above one.
        #expect(padded == (p.pages.multiple > 1))
    }

    /// A print interior opens on a title page, not on the cover art.
    @Test(arguments: names) func aPrintInteriorOpensOnATitlePage(_ name: String) throws {
        let p = try profile(name)
        let tree = try pictureBook(name)
        #expect(tree.pages[0].images.isEmpty == p.interior, "page 1 of a \(p.interior ? "print interior" : "full book")")
    }

    /// The gutter grows with the page count as the profile's table says, and the text moves with it.
    @Test(arguments: names.filter { (try? PrintProfile.load(named: $0, from: Repository.resources.profiles).gutter) != nil })
    func gutterGrowsWithTheBook(_ name: String) throws {
        let p = try profile(name)
        let table = try #require(p.gutter)
        // An inner margin below every bracket's gutter, so the table alone decides it.
        let inner = Length(points: table.map(\.margin.points).min()! / 2)
        func memoir(paragraphs: Int) throws -> PageTree {
            let book = Book(kind: .memoir, title: "Thick", format: BookFormat(trim: .preset("6x9"), margins: Margins(inner: inner)),
                            pages: [Page(TextPage(text: sampleProse(paragraphs: paragraphs)))])
            let resolved = try TestBooks.document(book, profile: name).resolve()
            return BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        }
        let thin = try memoir(paragraphs: 20), thick = try memoir(paragraphs: 700)
        #expect(thin.pages.count <= table[0].maxPages && thick.pages.count > table[0].maxPages,
                "the two books must fall in different brackets (\(thin.pages.count) and \(thick.pages.count) pages)")
        for tree in [thin, thick] {
            let wanted = try #require(p.gutterMargin(pages: tree.pages.count))
            #expect(tree.margins.inner >= wanted.points - 0.001, "\(tree.pages.count) pages")
            // Text really moved: a right-hand page's text starts at the gutter, a left-hand page's ends there.
            let right = try #require(tree.pages.first { $0.role == .text && $0.side == .right }?.textBoxes.first)
            let left = try #require(tree.pages.first { $0.role == .text && $0.side == .left }?.textBoxes.first)
            #expect(abs(right.frame.x - tree.margins.inner) < 0.001)
            #expect(abs(left.frame.maxX - (tree.trim.width - tree.margins.inner)) < 0.001)
        }
        #expect(thick.margins.inner > thin.margins.inner)
    }
}
