import Testing
import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout
import BookRender
import BookTestSupport
import BookRenderKit

/// The printers' safe zones, trims and page rules, as the profiles state them and as layout and
/// preflight keep them.
@Suite struct PrintSafeZoneTests {
    static let printers = ["kdp", "lulu", "ingramspark"]
    static let samples = ["storybook/book.json", "memoir/book.json", "apps/memoirai/storybook.json",
                          "apps/roger/story.json", "apps/infinitestories/story.json"]

    func profile(_ name: String) throws -> PrintProfile {
        try PrintProfile.load(named: name, from: Repository.resources.profiles)
    }

    func layout(_ file: String, profile: String?) throws -> (PageTree, ResolvedBook) {
        let document = try BookDocument.open(Repository.samples.appendingPathComponent(file),
                                             settings: TestBooks.settings(profile: profile))
        let resolved = try document.resolve()
        return (BookLayouter(typesetter: try TestFonts.typesetter(language: resolved.language)).layout(resolved), resolved)
    }

    /// The printers' published distances for everything printed on a bleed book (KDP's help on
    /// margins, Lulu's and IngramSpark's file guides).
    @Test func safetyIsThePrintersNumber() throws {
        #expect(try profile("kdp").safety == .inches(0.375))
        #expect(try profile("lulu").safety == .inches(0.5))
        #expect(try profile("ingramspark").safety == .inches(0.5))
    }

    /// The safe zone's binding side is the gutter table's margin for the book's page count, and
    /// never less than the safety distance.
    @Test(arguments: printers) func theGutterSideFollowsTheGutterTable(_ name: String) throws {
        let p = try profile(name)
        for pages in [24, 151, 301, 501, 701] {
            let insets = p.safeInsets(pageCount: pages)
            #expect(insets.inner == max(p.safety.points, p.gutterMargin(pages: pages)?.points ?? 0), "\(pages) pages")
            #expect(insets.top >= p.safety.points && insets.bottom >= p.safety.points && insets.outer >= p.safety.points)
        }
    }

    /// Every sample, laid out for each printer: every text box's ink (folios, captions, titles,
    /// body, QR captions) lies inside the safe zone of its page, and book preflight agrees.
    @Test(arguments: printers, samples) func everySampleKeepsItsInkInTheSafeZone(_ name: String, _ file: String) throws {
        let p = try profile(name)
        let (tree, _) = try layout(file, profile: name)
        let insets = p.safeInsets(pageCount: tree.pages.count)
        var folios = 0
        for page in tree.pages {
            let (left, right) = page.number % 2 == 1 ? (insets.inner, insets.outer) : (insets.outer, insets.inner)
            let safe = Rect(x: left, y: insets.top, width: tree.trim.width - left - right, height: tree.trim.height - insets.top - insets.bottom)
            for box in page.textBoxes where !box.lines.isEmpty {
                #expect(safe.contains(box.inkBounds, tolerance: 0.5), "\(file) page \(page.number): \"\(box.text.prefix(30))\" at \(box.inkBounds), safe \(safe)")
                if box.text == String(page.number) { folios += 1 }
            }
        }
        #expect(folios > 0, "\(file) has folios")
        let findings = PageTreePreflight.check(tree, profile: p)
        #expect(!findings.contains { $0.check == .outsideSafeArea }, "\(findings.filter { $0.check == .outsideSafeArea })")
    }

    /// A folio sits between the text and the printer's safety line, clear of both; without a
    /// profile it stays centred in the bottom margin, as it always was.
    @Test(arguments: printers) func foliosClearTheTextAndTheSafetyLine(_ name: String) throws {
        let p = try profile(name)
        let (tree, resolved) = try layout("memoir/book.json", profile: name)
        let role = resolved.tokens.typography.pageNumber
        let folios = tree.pages.flatMap { page in page.textBoxes.filter { $0.text == String(page.number) } }
        #expect(!folios.isEmpty)
        for folio in folios {
            let ink = folio.inkBounds
            #expect(tree.trim.height - ink.maxY >= p.safety.points + 0.3 * role.size - 0.01, "\(ink)")
            #expect(ink.y >= tree.trim.height - tree.margins.bottom + 0.5 * role.size - 0.01, "\(ink) below text ending at \(tree.trim.height - tree.margins.bottom)")
        }

        let (plain, plainBook) = try layout("memoir/book.json", profile: nil)
        #expect(plain.margins.bottom == plainBook.margins.bottom, "no profile: the theme's margin")
        for page in plain.pages {
            for folio in page.textBoxes where folio.text == String(page.number) {
                let centre = folio.frame.y + folio.layout.height / 2
                #expect(abs(centre - (plain.trim.height - plain.margins.bottom / 2)) < 0.01, "page \(page.number)")
            }
        }
    }

    /// A book asking for folios and text inside KDP's 0.375 in (the corpus's `kdp-folio-in-margin`)
    /// gets them there when laid out for the screen, and book preflight catches that tree; laid
    /// out for kdp, its margins give way to the printer's.
    @Test func aBookAskingForTheMarginIsCaughtAndCorrected() throws {
        let file = Repository.root.appendingPathComponent("Tests/PrintRuleBooks/kdp-folio-in-margin/book.json")
        let kdp = try profile("kdp")
        func tree(_ profile: String?) throws -> PageTree {
            let resolved = try BookDocument.open(file, settings: TestBooks.settings(profile: profile)).resolve()
            return BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        }
        let plain = try tree(nil)
        let caught = PageTreePreflight.check(plain, profile: kdp).filter { $0.check == .outsideSafeArea }
        #expect(caught.count >= plain.pages.count - 1, "every page with text or a folio: \(caught.count) of \(plain.pages.count)")
        #expect(caught.contains { $0.message.contains("bottom trim edge") })
        let printed = try tree("kdp")
        #expect(!PageTreePreflight.check(printed, profile: kdp).contains { $0.check == .outsideSafeArea })
    }

    /// A book whose outside margin is KDP's 0.375 in keeps its justified lines' ink inside it
    /// too: the glyphs ending a line (an `f`'s hook) and starting one (a `j`'s tail) ink past the
    /// text box, so the margin leaves room for them.
    @Test func marginsAtThePrintersFigureLeaveRoomForInk() throws {
        let file = try writeLongMemoir(in: try temporaryDirectory("ink-room"), chapters: 10, paragraphs: 20,
                                       margins: ["top": "0.75in", "bottom": "0.8in", "inner": "0.6in", "outer": "0.375in"])
        let resolved = try BookDocument.open(file, settings: TestBooks.settings(profile: "kdp")).resolve()
        let tree = BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        let outside = PageTreePreflight.check(tree, profile: try profile("kdp")).filter { $0.check == .outsideSafeArea }
        #expect(outside.isEmpty, "\(outside.count) pages: \(outside.prefix(3))")
        #expect(tree.margins.outer >= 0.375 * 72 && tree.margins.outer < 0.375 * 72 + 6, "\(tree.margins)")
    }

    /// The printers' trims: listed sizes and KDP's custom range pass; anything else is refused,
    /// naming the nearest size the printer does take.
    @Test func trimsAreThePrintersOwn() throws {
        let kdp = try profile("kdp"), lulu = try profile("lulu"), ingram = try profile("ingramspark")
        let inch = 72.0
        #expect(kdp.accepts(trim: 6 * inch, 9 * inch) && kdp.accepts(trim: 8.25 * inch, 11 * inch))
        #expect(kdp.accepts(trim: 8.5 * inch, 11.69 * inch) && kdp.accepts(trim: 4 * inch, 6 * inch), "the custom range's corners")
        #expect(!kdp.accepts(trim: 13 * inch, 13 * inch) && !kdp.accepts(trim: 11 * inch, 8.5 * inch))
        #expect(kdp.nearestTrim(to: 13 * inch, 13 * inch)?.description == "8.5x11.69")
        let problem = try #require(kdp.trimProblem(13 * inch, 13 * inch))
        #expect(problem.contains("13 × 13 in") && problem.contains("8.5 × 11.69 in") && problem.contains("format.trim"), "\(problem)")
        #expect(kdp.trimProblem(6 * inch, 9 * inch) == nil)

        #expect(lulu.accepts(trim: 8.5 * inch, 11 * inch) && lulu.accepts(trim: 11 * inch, 8.5 * inch))
        #expect(lulu.accepts(trim: 595.2756, 841.8898), "A4 in points is Lulu's 8.27 × 11.69 in")
        #expect(!lulu.accepts(trim: 8.25 * inch, 11 * inch))
        #expect(lulu.nearestTrim(to: 8.25 * inch, 11 * inch)?.description == "8.5x11")

        #expect(ingram.accepts(trim: 11 * inch, 8.5 * inch) && ingram.accepts(trim: 8.25 * inch, 11 * inch))
        #expect(!ingram.accepts(trim: 10 * inch, 8 * inch))
        #expect(ingram.nearestTrim(to: 10 * inch, 8 * inch)?.description == "11x8.5")
        // A profile without a list takes any trim.
        #expect(try profile("screen").accepts(trim: 13 * inch, 13 * inch))
    }

    /// Book preflight names the trim; the rest of the book can be fine.
    @Test func preflightRefusesATrimThePrinterDoesNotMake() throws {
        let book = Book(kind: .memoir, title: "Big", format: BookFormat(trim: .size(width: .inches(13), height: .inches(13))),
                        pages: (0..<23).map { _ in Page(TextPage(text: "A page.")) })
        let report = try TestBooks.document(book, profile: "kdp").preflight(profile: "kdp")
        let trim = report.findings.filter { $0.kind == "trimSize" }
        #expect(trim.count == 1 && trim[0].severity == .error && trim[0].pages.isEmpty, "\(report.findings)")
        #expect(trim.first?.message.contains("8.5 × 11.69 in") == true)
    }

    /// A trim's own page multiple (some printers bind some formats in fours) pads the book to it
    /// and is what preflight checks; other trims keep the profile's.
    @Test func aTrimsOwnPageMultiplePadsTheBook() throws {
        let dir = try temporaryDirectory("profile-by-trim")
        var json = try String(contentsOf: Repository.resources.profiles.appendingPathComponent("ingramspark.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: #""multiple": 2 }"#, with: #""multiple": 2, "byTrim": [{ "trims": ["6x9"], "multiple": 4 }] }"#)
        try json.write(to: dir.appendingPathComponent("fours.json"), atomically: true, encoding: .utf8)
        let fours = try PrintProfile.load(named: "fours", from: dir)
        #expect(fours.pageMultiple(trim: 6 * 72, 9 * 72) == 4)
        #expect(fours.pageMultiple(trim: 8.5 * 72, 11 * 72) == 2)

        let book = Book(kind: .memoir, title: "Fours", format: BookFormat(trim: .preset("6x9")),
                        pages: (0..<20).map { _ in Page(TextPage(text: "A page.")) })
        var resolved = try TestBooks.document(book, profile: "ingramspark").resolve()
        let even = BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        #expect(even.pages.count == 22, "21 pages padded to even")
        resolved.profile = fours
        let tree = BookLayouter(typesetter: try TestFonts.typesetter()).layout(resolved)
        #expect(tree.pages.count == 24, "21 pages padded to a multiple of 4")
        #expect(!PageTreePreflight.check(tree, profile: fours).contains { $0.check == .pageCount })
        var short = tree
        short.pages.removeLast(2)
        let findings = PageTreePreflight.check(short, profile: fours).filter { $0.check == .pageCount }
        #expect(findings.contains { $0.message.contains("multiples of 4") }, "\(findings)")
    }

    /// A profile's trims and page rules are checked like its other numbers.
    @Test func badTrimAndPageRulesAreRefusedAtTheirPlace() throws {
        let dir = try temporaryDirectory("profile-bad-trims")
        let base = try String(contentsOf: Repository.resources.profiles.appendingPathComponent("kdp.json"), encoding: .utf8)
        let cases: [(String, String, String)] = [
            (#""5x8""#, #""5 by 8""#, "5 by 8"),
            (#""multiple": 2 }"#, #""multiple": 2, "byTrim": [{ "trims": ["6x9"], "multiple": 0 }] }"#, "$.pages.byTrim[0].multiple"),
            (#""maxWidth": "8.5in""#, #""maxWidth": "3in""#, "$.trims.custom"),
        ]
        for (i, (from, to, named)) in cases.enumerated() {
            #expect(base.contains(from))
            try base.replacingOccurrences(of: from, with: to).write(to: dir.appendingPathComponent("bad\(i).json"), atomically: true, encoding: .utf8)
            do {
                _ = try PrintProfile.load(named: "bad\(i)", from: dir)
                Issue.record("bad\(i) loaded")
            } catch let error as ConfigError {
                #expect("\(error)".contains(named), "\(error)")
            }
        }
    }
}
