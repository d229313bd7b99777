import Testing
import Foundation
import BookTestSupport

/// The exported PDF's tags as a screen reader follows them: one element per paragraph, whole
/// across a page break and in the book's order, headings that nest, and the rules of PDF/UA-1
/// that bookrender's files can break, checked on the written file (`PDFUAChecks`).
@Suite struct TaggedStructureTests {
    func export(_ sample: String, _ extra: [String] = [], in dir: URL) throws -> URL {
        let pdf = dir.appendingPathComponent("book.pdf")
        let r = try run(try Repository.binary.path, ["export", Repository.samples.appendingPathComponent(sample).path,
                                                     "-o", pdf.path, "-q"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return pdf
    }

    /// The storybook's TrueType fonts come out of cairo as `CIDFontType2` without a map; each one
    /// the file holds gets `/CIDToGIDMap /Identity`, tagged or not.
    @Test(arguments: [[], ["--no-tags"]])
    func everyTrueTypeCIDFontHasACIDToGIDMap(_ extra: [String]) throws {
        let dir = try temporaryDirectory("cidtogid")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try TaggedPDF(try export("storybook/book.json", extra, in: dir))
        let cidFonts = pdf.objects.values.compactMap { $0 as? [String: Any] }.filter { $0["/Subtype"] as? String == "/CIDFontType2" }
        #expect(!cidFonts.isEmpty)
        for font in cidFonts { #expect(font["/CIDToGIDMap"] as? String == "/Identity", "\(font["/BaseFont"] ?? "?")") }
    }

    @Test func viewersShowTheTitle() throws {
        let dir = try temporaryDirectory("display-title")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try TaggedPDF(try export("memoir/book.json", in: dir))
        let preferences = pdf.resolve(pdf.catalog["/ViewerPreferences"]) as? [String: Any]
        #expect(preferences?["/DisplayDocTitle"] as? Bool == true, "\(pdf.catalog["/ViewerPreferences"] ?? "none")")
        #expect(try run("pdfinfo", [dir.appendingPathComponent("book.pdf").path]).stdout.contains("Title:           The Kitchen Table"))
    }
}
