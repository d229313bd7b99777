import Testing
import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout
import BookTestSupport
import BookRenderKit

/// What the layout stage promises about the page tree, asserted without pixels.
@Suite struct PageTreeTests {
    func memoir(_ text: String, extra: [Page] = []) -> Book {
        Book(kind: .memoir, title: "Flow", language: "en-US", theme: "memoir",
             pages: [Page(TextPage(text: text))] + extra)
    }

    func flowPages(_ tree: PageTree) -> [PageNode] { tree.pages.filter { $0.role == .text } }

    /// The flowing text's boxes (not the folios), in page order.
    func flowBoxes(_ tree: PageTree) -> [(page: Int, box: TextBox)] {
        flowPages(tree).flatMap { p in p.textBoxes.filter { $0.lines.count > 0 && $0.layout.lines.count > 3 }.map { (p.number, $0) } }
    }

    static func stripped(_ s: String) -> String {
        String(s.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) && $0 != "\u{00AD}" }.map(Character.init))
    }

    @Test func longTextFlowsOverPagesWithNoTextLostOrOutsideItsFrame() throws {
        let input = sampleProse(paragraphs: 60)
        let tree = try TestBooks.document(memoir(input)).layout()
        let boxes = flowBoxes(tree)
        #expect(boxes.count > 5, "60 paragraphs should need several pages")
        let laidOut = boxes.map { $0.box.text }.joined(separator: "\n")
        #expect(Self.stripped(laidOut) == Self.stripped(input))
        // Every line on exactly one page: the boxes' ranges tile the layout's lines.
        let layout = boxes[0].box.layout
        var next = 0
        for (_, box) in boxes {
            #expect(box.layout === layout)
            #expect(box.lines.lowerBound == next)
            next = box.lines.upperBound
            for i in box.lines {
                let line = layout.lines[i]
                #expect(line.top - box.layoutTop + line.height <= box.frame.height + 0.01, "line \(i) leaves its frame at the bottom")
                #expect(line.x >= -0.01 && line.x + line.width <= box.frame.width + 0.5, "line \(i) leaves its frame sideways")
            }
            #expect(tree.pages[0].items.count > 0)
            let page = Rect(x: 0, y: 0, width: tree.trim.width, height: tree.trim.height)
            #expect(page.contains(box.frame))
        }
        #expect(next == layout.lines.count)
    }

    @Test func noWidowsOrOrphansAtAnyPageBreak() throws {
        var splits = 0
        for seed in [1, 2, 3, 5, 8] as [UInt64] {
            let tree = try TestBooks.document(memoir(sampleProse(paragraphs: 40, seed: seed))).layout()
            let boxes = flowBoxes(tree)
            for (a, b) in zip(boxes, boxes.dropFirst()) {
                let lines = a.box.layout.lines
                let last = lines[a.box.lines.upperBound - 1], first = lines[b.box.lines.lowerBound]
                guard last.paragraph == first.paragraph else { continue }
                splits += 1
                #expect(last.indexInParagraph + 1 >= 2, "orphan: one line of paragraph \(last.paragraph) at the foot of page \(a.page)")
                #expect(first.paragraphLineCount - first.indexInParagraph >= 2, "widow: one line of paragraph \(first.paragraph) at the head of page \(b.page)")
            }
        }
        #expect(splits > 0, "no page break fell inside a paragraph: nothing was checked")
    }

    @Test func justifiedEnglishIsHyphenated() throws {
        let tree = try TestBooks.document(memoir(sampleProse(paragraphs: 30))).layout()
        let lines = flowBoxes(tree).flatMap { $0.box.layout.lines[$0.box.lines] }
        let hyphenated = lines.filter(\.endsWithSoftHyphen)
        #expect(hyphenated.count >= 3, "memoir body is justified and hyphenated; expected lines ending in a hyphen")
    }

    /// In a picture book a chapter takes no page of its own: its title stands above the words of
    /// the picture or spread that opens it, and spreads land on the left with nothing blank.
    @Test func pictureBookChaptersOpenOnTheirFirstPictureAndSpreadsFaceEachOther() throws {
        let book = Book(kind: .storybook, title: "Order", pages: [
            Page(IllustrationPage(text: "One.", scene: "a hill")),
            Page(ChapterPage(title: "Part Two")),
            Page(SpreadPage(scene: "a wide sea", text: "Across")),
            Page(ChapterPage(title: "Part Three")),
            Page(SpreadPage(scene: "wide")),
        ])
        let tree = try TestBooks.document(book).layout()
        #expect(tree.pages.map(\.role) == [.cover, .illustration, .text, .spreadLeft, .spreadRight, .spreadLeft, .spreadRight, .theEnd])
        #expect(tree.pages[0].side == .right)
        for p in tree.pages where p.role == .spreadLeft { #expect(p.side == .left) }
        #expect(tree.chapters.map(\.page) == [4, 6])
        #expect(tree.pages[3].text.contains("Part Two") && tree.pages[5].text.contains("Part Three"))
        #expect(!tree.findings.contains { $0.kind == .blankPageInserted })
    }

    /// A theme that gives chapters a page of their own on the right: where no picture before it can
    /// move, a designed page goes in before one that would land on the left.
    @Test func chapterTitlePagesOpenOnTheRight() throws {
        var book = Book(kind: .storybook, title: "Order", pages: [
            Page(IllustrationPage(text: "One.", scene: "a hill")),
            Page(ChapterPage(title: "Part Two")),                 // would land on page 3: right already
            Page(TextPage(text: "Across")),
            Page(ChapterPage(title: "Part Three")),               // page 5 is right: no blank
            Page(TextPage(text: "Wide")),
            Page(TextPage(text: "And more")),
            Page(ChapterPage(title: "Part Four")),                // page 8 is left: a blank goes first
        ])
        book.tokens = .object(["templates": .object(["chapter": .object(["chapterOpening": .string("page"), "chapterStart": .string("recto")])])])
        let tree = try TestBooks.document(book).layout()
        for p in tree.pages where p.role == .chapter { #expect(p.side == .right) }
        #expect(tree.pages.map(\.role).filter { $0 == .chapter }.count == 3)
        #expect(tree.pages[7].role == .designed && tree.pages[8].role == .chapter)
    }

    @Test func spreadSplitsOnePictureAtTheGutter() throws {
        let dir = try temporaryDirectory("spread")
        try run("convert", ["-size", "800x300", "gradient:red-blue", dir.appendingPathComponent("wide.jpg").path])
        let book = Book(kind: .storybook, title: "Wide", pages: [
            Page(IllustrationPage(text: "x", scene: "s")),
            Page(SpreadPage(image: .path("wide.jpg"), leftText: "Left words", rightText: "Right words"))])
        let tree = try TestBooks.document(book, folder: dir).layout()
        let left = try #require(tree.pages.first { $0.role == .spreadLeft }), right = try #require(tree.pages.first { $0.role == .spreadRight })
        let l = try #require(left.images.first), r = try #require(right.images.first)
        #expect(l.asset === r.asset)
        #expect(abs(l.frame.width - r.frame.width) < 0.001 && abs(r.frame.x - (l.frame.x - tree.trim.width)) < 0.001)
        #expect(l.frame.width >= 2 * tree.trim.width - 0.01, "the picture spans both pages")
        #expect(left.text.contains("Left words") && right.text.contains("Right words"))
    }

    @Test func missingIllustrationGetsAPlaceholderReportedWithItsPage() throws {
        let book = Book(kind: .storybook, title: "Gaps", pages: [
            Page(IllustrationPage(text: "Shown.", scene: "a lighthouse at night")),
            Page(IllustrationPage(image: .path("nowhere.jpg"), text: "Lost."))])
        let tree = try TestBooks.document(book, folder: try temporaryDirectory("gaps")).layout()
        for p in tree.pages.dropFirst() where p.role != .theEnd {
            #expect(p.items.contains { if case .placeholderArt = $0 { return true } else { return false } })
        }
        #expect(tree.pages[1].text.contains("a lighthouse at night"), "the placeholder shows the scene")
        let reported = tree.findings.filter { $0.kind == .placeholder || $0.kind == .missingImage }
        #expect(reported.map(\.physicalPages) == [[2], [3]])
        #expect(reported[1].message.contains("nowhere.jpg"))
    }

    @Test func strictTurnsAMissingImageIntoAnError() throws {
        let book = Book(kind: .storybook, title: "Gaps", pages: [Page(IllustrationPage(image: .path("nowhere.jpg"), text: "Lost."))])
        #expect { try TestBooks.document(book, strict: true).resolve() } throws: { error in
            (error as? BookRenderError)?.kind == .invalidBook && (error as? BookRenderError)?.message.contains("nowhere.jpg") == true
        }
    }

    @Test func qrPageHoldsAScannableModuleGrid() throws {
        let book = Book(kind: .memoir, title: "QR", pages: [Page(QRPage(url: "https://example.com/a", caption: "Listen"))])
        let tree = try TestBooks.document(book).layout()
        let qr = try #require(tree.pages[1].items.compactMap { if case .qr(let q) = $0 { return q } else { return nil } }.first)
        #expect(qr.size == 21 || qr.size == 25, "a short URL is a version 1 or 2 symbol")
        #expect(qr.modules.count == qr.size * qr.size)
        // Finder patterns: the three 7×7 corners start with a dark row of 7.
        for (r, c) in [(0, 0), (0, qr.size - 7), (qr.size - 7, 0)] {
            #expect((0..<7).allSatisfy { qr.modules[r * qr.size + c + $0] })
        }
        #expect(abs(qr.frame.width - qr.frame.height) < 0.001)
        #expect(tree.pages[1].text.contains("https://example.com/a"))
    }

    @Test func defaultTrimIsThreeByFourAndTokensCanBeOverridden() throws {
        var book = Book(kind: .storybook, title: "T", pages: [Page(TextPage(text: "Hi."))])
        book.tokens = .object(["palette": .object(["accent": .string("#112233")])])
        let resolved = try TestBooks.document(book).resolve()
        #expect(resolved.trim == TrimSize(width: 594, height: 792))
        #expect(resolved.tokens.palette.accent == Color(hex: "#112233"))
        #expect(resolved.tokens.typography.body.family == "Andika")
        book.format = BookFormat(trim: .preset("6x9"))
        book.cover = Cover(accent: "#445566")
        let r2 = try TestBooks.document(book, theme: "memoir").resolve()
        #expect(r2.trim == TrimSize(width: 432, height: 648))
        #expect(r2.tokens.palette.accent == Color(hex: "#445566"), "cover.accent wins over the tokens")
        #expect(r2.tokens.typography.title.family == "Linux Libertine O")
    }

    @Test func aGlyphNoFontHasIsReportedWithItsPage() throws {
        let book = Book(kind: .storybook, title: "Boxes", pages: [
            Page(IllustrationPage(text: "Plain.", scene: "x")),
            Page(IllustrationPage(text: "A private-use char \u{F0000} here.", scene: "y"))])
        let tree = try TestBooks.document(book).layout()
        let missing = tree.findings.filter { $0.kind == .missingGlyph }
        #expect(missing.count == 1)
        #expect(missing.first?.physicalPages == [3])
        #expect(missing.first?.message.contains("U+F0000") == true)
    }

    /// A caller that draws each page as it comes and needs no text afterwards lets it go: the
    /// handed-over pages keep their pictures and numbers but no text, and a missing glyph is
    /// still reported with its page.
    @Test func handedOverPagesCanLetTheirTextGo() throws {
        let long = sampleProse(paragraphs: 90, seed: 3)  // long enough for a helper thread
        let book = Book(kind: .storybook, title: "Let go", pages: [
            Page(IllustrationPage(text: "Plain.", scene: "x")),
            Page(IllustrationPage(text: "A private-use char \u{F0000} here.", scene: "y")),
            Page(TextPage(text: long)), Page(TextPage(text: long + " Again."))])
        let resolved = try TestBooks.document(book).resolve()
        var layouter = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: 2)
        layouter.keepsHandedOverText = false
        var handedText: [[String]] = []
        let tree = layouter.layout(resolved) { page in
            handedText.append(page.textBoxes.flatMap { box in box.lines.map { box.layout.lines[$0].text } })
        }
        let kept = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: 2).layout(resolved)
        let keptText = kept.pages.map { page in page.textBoxes.flatMap { box in box.lines.map { box.layout.lines[$0].text } } }
        #expect(handedText == keptText, "each page had its text when it was handed over")
        #expect(keptText.joined().count > 40)
        #expect(tree.pages.allSatisfy { $0.textBoxes.isEmpty })
        #expect(tree.pages.map(\.number) == kept.pages.map(\.number))
        #expect(tree.pages.map { $0.images.count } == kept.pages.map { $0.images.count })
        #expect(tree.findings.map(\.description) == kept.findings.map(\.description))
        #expect(tree.findings.filter { $0.kind == .missingGlyph }.map(\.physicalPages) == [[3]])
    }

    @Test func aBookFolderMayBringItsOwnFonts() throws {
        let dir = try temporaryDirectory("bookfonts")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        let font = dir.appendingPathComponent("fonts/DejaVuSans.ttf")
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: font.path)
        var book = Book(kind: .storybook, title: "Own face", pages: [Page(TextPage(text: "Set in the book's own face."))])
        book.tokens = .object(["typography": .object(["body": .object(["family": .string("DejaVu Sans")])])])
        let used = try TestBooks.document(book, folder: dir).layout().pages[1].textBoxes.flatMap { $0.layout.fontFiles }
        #expect(used.contains(font.resolvingSymlinksInPath().path), "\(used)")
        // Without the folder the family is not in the font set and a font of ours stands in.
        let elsewhere = try TestBooks.document(book, folder: try temporaryDirectory("nofonts")).layout().pages[1].textBoxes.flatMap { $0.layout.fontFiles }
        #expect(!elsewhere.contains { $0.hasSuffix("DejaVuSans.ttf") })
    }
}
