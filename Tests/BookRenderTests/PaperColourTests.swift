import Foundation
import Testing
import BookModel
import BookConfig
import BookLayout
import BookCompare
import BookTestSupport
import BookRenderKit

/// For a printer the theme's page colour is the paper's: not printed, suggested as the stock to
/// print on, and shown under the pages of a preview. A book may ask for it to be printed.
@Suite struct PaperColourTests {
    static let memoir = Repository.samples.appendingPathComponent("memoir/book.json")
    static let cream = Color(hex: "#F6F1E8")!

    static func document(profile: String?, printBackground: Bool? = nil) throws -> BookDocument {
        var document = try BookDocument.open(memoir, settings: TestBooks.settings(profile: profile))
        if let printBackground {
            var format = document.book.format ?? BookFormat()
            format.printBackground = printBackground
            document.book.format = format
        }
        return document
    }

    /// Pages whose first item paints the page colour over the whole sheet.
    static func pagesPaintingThePageColour(_ tree: PageTree) -> [Int] {
        tree.pages.filter { page in
            guard case .fill(let f)? = page.items.first else { return false }
            return f.color == cream && f.rect.width >= tree.trim.width && f.rect.height >= tree.trim.height
        }.map(\.number)
    }

    @Test(arguments: ["kdp", "lulu", "ingramspark"])
    func aPrintersPageColourIsLeftToThePaper(_ profile: String) throws {
        let tree = try Self.document(profile: profile).layout()
        #expect(Self.pagesPaintingThePageColour(tree).isEmpty)
        #expect(tree.pages.allSatisfy { $0.paper == Self.cream })
    }

    @Test func withoutAPrinterOrWhenTheBookAsksThePageColourIsPrinted() throws {
        let plain = try Self.document(profile: nil).layout()
        #expect(Self.pagesPaintingThePageColour(plain) == plain.pages.map(\.number))
        #expect(plain.pages.allSatisfy { $0.paper == nil })
        let asked = try Self.document(profile: "kdp", printBackground: true).layout()
        #expect(Self.pagesPaintingThePageColour(asked) == asked.pages.map(\.number))
    }

    @Test func theExportNamesThePaperAndItsPreviewShowsIt() throws {
        let dir = try temporaryDirectory("paper-colour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try Self.document(profile: "kdp").export(ExportOptions(
            pdf: dir.appendingPathComponent("book.pdf"), png: .init(folder: dir.appendingPathComponent("png"), dpi: 20),
            force: true))
        #expect(report.paper?.pageColour == "#F6F1E8" && report.paper?.suggested == "cream")
        let preview = try RGBAImage(contentsOf: dir.appendingPathComponent("png/page-003.png"))
        let corner = Array(preview.pixels[(2 * preview.width + 2) * 4..<(2 * preview.width + 2) * 4 + 3])
        #expect(corner == [0xF6, 0xF1, 0xE8], "\(corner)")
        let screen = try Self.document(profile: nil).export(ExportOptions(pdf: dir.appendingPathComponent("plain.pdf")))
        #expect(screen.paper == nil)
        #expect(PaperStock.suggested(for: Color(hex: "#FFFDF8")!) == "white")
    }
}
