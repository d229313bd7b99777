import Testing
import Foundation
import BookConfig
import BookLayout
import BookRender
import BookModel
import BookRenderKit
import BookTestSupport

/// Characters that cannot print and pictures too coarse for the printer: what the book preflight
/// and the PDF preflight report, and what `export --profile` refuses.
@Suite struct PreflightRulesTests {
    static let corpus = Repository.root.appendingPathComponent("Tests/PrintRuleBooks")

    func profile(_ name: String) throws -> PrintProfile {
        try PrintProfile.load(named: name, from: Repository.resources.profiles)
    }

    /// A memoir whose second chapter holds `text`.
    func memoir(_ text: String) -> Book {
        Book(kind: .memoir, title: "Glyphs", pages: [
            Page(TextPage(text: sampleProse(paragraphs: 4))),
            Page(TextPage(text: "First words. " + text + " Last words.\n\n" + sampleProse(paragraphs: 30, seed: 11)))])
    }

    @Test func aPrivateUseCharacterIsAnErrorForAPrinterNamingItsPageAndCodePoint() throws {
        let document = TestBooks.document(memoir("A penguin \u{E000} here."), theme: "memoir")
        let tree = try document.layout()
        let page = try #require(tree.pages.first { $0.text.contains("\u{E000}") }?.number)
        for name in ["kdp", "lulu", "ingramspark"] {
            let found = PageTreePreflight.check(tree, profile: try profile(name)).filter { $0.check == .missingGlyph }
            #expect(found.count == 1 && found.first?.severity == .error && found.first?.page == page, "\(name): \(found)")
            #expect(found.first?.message.contains("U+E000") == true, "\(found)")
        }
        let proof = PageTreePreflight.check(tree, profile: try profile("screen")).filter { $0.check == .missingGlyph }
        #expect(proof.map(\.severity) == [.warning])
    }

    @Test func aCharacterNoFontHasNamesItselfAndItsCodePoint() throws {
        let tree = try TestBooks.document(memoir("Unassigned \u{0378} here."), theme: "memoir").layout()
        let found = PageTreePreflight.check(tree, profile: try profile("kdp")).filter { $0.check == .missingGlyph }
        #expect(found.count == 1 && found.first?.severity == .error)
        #expect(found.first?.message.contains("U+378 (\u{0378})") == true, "\(found)")
    }

    /// Ordinary text, and the characters Pango draws as nothing on purpose (soft hyphens, joiners),
    /// are no finding.
    @Test func ordinaryTextHasNoMissingGlyph() throws {
        let tree = try TestBooks.document(memoir("Caf\u{00E9}, na\u{00EF}ve, co\u{00AD}operate, a\u{200D}b, \u{201C}quoted\u{201D} \u{2014} dash."),
                                          theme: "memoir").layout()
        #expect(PageTreePreflight.check(tree, profile: try profile("kdp")).filter { $0.check == .missingGlyph }.isEmpty)
    }

    @Test func exportForAPrinterRefusesAMissingGlyphUnlessForced() throws {
        let dir = try temporaryDirectory("glyph-export")
        let pdf = dir.appendingPathComponent("book.pdf")
        let document = TestBooks.document(memoir("A penguin \u{E000} here."), theme: "memoir", profile: "kdp")
        #expect {
            try document.export(ExportOptions(pdf: pdf))
        } throws: { error in
            guard let e = error as? BookRenderError else { return false }
            return e.kind == .preflightFailed && e.diagnostics.contains { $0.kind == "missingGlyph" }
        }
        #expect(!FileManager.default.fileExists(atPath: pdf.path))
        let report = try document.export(ExportOptions(pdf: pdf, force: true))
        #expect(FileManager.default.fileExists(atPath: pdf.path))
        #expect(report.findings.contains { $0.kind == "missingGlyph" && $0.severity == .error })
    }

    /// A red JPEG filling a picture-book page (8.25 × 11 in and bleed).
    func pictureBook(width: Int, height: Int) throws -> BookDocument {
        let dir = try temporaryDirectory("picture")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        try TestImages.redJPEG(width: width, height: height).write(to: dir.appendingPathComponent("images/p.jpg"))
        let book = Book(kind: .storybook, title: "Pictures", pages: [
            Page(IllustrationPage(image: .path("images/p.jpg"), text: "A page.", scene: "x"))])
        return TestBooks.document(book, folder: dir, theme: "picture-book")
    }

    func resolution(_ document: BookDocument, _ name: String) throws -> [PreflightFinding] {
        let tree = try document.with { $0.profile = name }.layout()
        return PageTreePreflight.pages(tree, profile: try profile(name)).filter { $0.check == .lowResolution }
    }

    @Test func picturesAreJudgedAgainstTheProfilesFloorAndRecommendation() throws {
        // 8.25 × 11 in and bleed: 600 px across is about 72 ppi, 1700 about 200, 2600 over 300.
        let coarse = try pictureBook(width: 600, height: 800)
        #expect(try resolution(coarse, "kdp").map(\.severity) == [.error])
        #expect(try resolution(coarse, "ingramspark").map(\.severity) == [.error])
        #expect(try resolution(coarse, "proof").map(\.severity) == [.warning], "a proof refuses no picture")
        let soft = try pictureBook(width: 1700, height: 2270)
        #expect(try resolution(soft, "kdp").map(\.severity) == [.warning])
        #expect(try resolution(soft, "lulu").map(\.severity) == [.warning])
        #expect(try resolution(soft, "screen").isEmpty)
        let sharp = try pictureBook(width: 2600, height: 3470)
        #expect(try resolution(sharp, "kdp").isEmpty)
    }

    /// The cover's code calls the same check on its sheet: a coarse cover photo is an error there too.
    @Test func aCoverSheetsTreeIsCheckedTheSameWay() throws {
        let dir = try temporaryDirectory("cover-picture")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        try TestImages.redJPEG(width: 300, height: 400).write(to: dir.appendingPathComponent("images/cover.jpg"))
        var book = Book(kind: .storybook, title: "Cover", pages: [Page(TextPage(text: "Hello."))])
        book.cover = Cover(photo: .path("images/cover.jpg"))
        let resolved = try TestBooks.document(book, folder: dir, theme: "picture-book", profile: "kdp").resolve()
        let (tree, _) = try CoverSpread.layout(resolved, interiorPages: 100, paper: "white", typesetter: try TestFonts.typesetter())
        let found = PageTreePreflight.pages(tree, profile: try profile("kdp"))
        #expect(found.contains { $0.check == .lowResolution && $0.severity == .error && $0.page == 1 && $0.file == "images/cover.jpg" }, "\(found)")
        #expect(!found.contains { $0.check == .pageCount }, "a sheet has no page count to judge")
    }

    @Test func thePDFPreflightAppliesTheSameThresholds() throws {
        for (width, height, severity) in [(600, 800, PreflightFinding.Severity.error), (1700, 2270, .warning)] {
            let document = try pictureBook(width: width, height: height)
            let pdf = try temporaryDirectory("pdf-picture").appendingPathComponent("book.pdf")
            _ = try document.with { $0.profile = "kdp" }.export(ExportOptions(pdf: pdf, force: true))
            let found = try PDFPreflight.check(pdf, profile: try profile("kdp")).filter { $0.check == .lowResolution }
            let book = try resolution(document, "kdp")
            #expect(found.map(\.severity) == [severity], "\(found)")
            #expect(found.map(\.page) == book.map(\.page))
        }
    }

    @Test func aFloorAboveTheRecommendationIsRefused() throws {
        let dir = try temporaryDirectory("profiles")
        var json = try String(contentsOf: Repository.resources.profiles.appendingPathComponent("kdp.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: "\"minImageDPI\": 150", with: "\"minImageDPI\": 400")
        try json.write(to: dir.appendingPathComponent("kdp.json"), atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try PrintProfile.load(named: "kdp", from: dir) }
        do { _ = try PrintProfile.load(named: "kdp", from: dir) } catch {
            #expect("\(error)".contains("$.minImageDPI"), "\(error)")
        }
    }
}
