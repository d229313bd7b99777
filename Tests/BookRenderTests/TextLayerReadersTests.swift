import Testing
import Foundation
import BookModel
import BookTestSupport
import BookRenderKit

/// The PDF's text as two families of readers extract it, poppler (`pdftotext`) and MuPDF
/// (PyMuPDF), which treat a text layer's spans and gaps each in its own way: names from programs
/// broken across lines read as the book's words in both.
@Suite struct TextLayerReadersTests {
    /// The book exported, and its text by each reader, all pages together.
    static func read(_ document: BookDocument) throws -> (poppler: String, mupdf: String) {
        let dir = try temporaryDirectory("readers")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        _ = try document.export(ExportOptions(pdf: pdf))
        return (try PDFReaders.popplerText(pdf).joined(separator: "\n"), try PDFReaders.mupdfText(pdf).joined(separator: "\n"))
    }

    /// A memoir of real prose with 72 names from programs in its sentences (file names, paths,
    /// addresses, dotted and snake_case names): search finds each one whole.
    @Test func namesFromProgramsReadWholeInBothReaders() throws {
        let folder = Repository.root.appendingPathComponent("Tests/ProseBooks/the-literal-clerk")
        let names = try String(contentsOf: folder.appendingPathComponent("code-names.txt"), encoding: .utf8)
            .split(separator: "\n").map { String($0) }.filter { !$0.isEmpty }
        try #require(names.count == 72)
        let (poppler, mupdf) = try Self.read(try TestBooks.open(folder.appendingPathComponent("book.json")))
        for (reader, text) in [("pdftotext", poppler), ("PyMuPDF", mupdf)] {
            let missed = names.filter { !text.contains($0) }
            #expect(names.count - missed.count >= 65, "\(reader) finds \(names.count - missed.count) of 72; not: \(missed)")
        }
    }
}
