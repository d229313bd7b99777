import Testing
import Foundation
import BookModel
import BookTestSupport
import BookRenderKit

/// The PDF's text as two families of readers extract it, poppler (`pdftotext`) and MuPDF
/// (PyMuPDF), which treat a text layer's spans and gaps each in its own way: names from programs
/// broken across lines, ligatures and letter-spaced capitals read as the book's words in both.
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

    /// Ligatures next to the letters they are made of ("ff" then "f" in "Schifffahrt", "ff" then "fl"
    /// in "Stoffflasche"), in German and English.
    @Test func wordsWithLigaturesReadWholeInBothReaders() throws {
        let words = ["Schifffahrt", "Stoffflasche", "Sauerstoffflasche", "Auffahrt", "offizielle", "Kaffee",
                     "office", "baffled", "difficult", "waffle", "shuffle", "affluent", "sniffed"]
        // Short paragraphs: no word is broken across lines, which MuPDF would not join.
        let text = """
            Die Schifffahrt ruht.

            Eine offizielle Stoffflasche und eine Sauerstoffflasche.

            Nach der Auffahrt gab es Kaffee.

            The office staff were baffled.

            A difficult waffle shuffle.

            Fifty affluent officials sniffed.
            """
        let book = Book(kind: .memoir, title: "Ligaturen", language: "de-DE", pages: [Page(id: "text", TextPage(text: text))])
        let (poppler, mupdf) = try Self.read(TestBooks.document(book))
        for (reader, text) in [("pdftotext", poppler), ("PyMuPDF", mupdf)] {
            let found = Set(text.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).map(String.init))
            #expect(words.filter { !found.contains($0) } == [], "\(reader): \(text)")
        }
    }

    /// A typographic cover sets the author's name in spaced capitals: each name reads as a word.
    @Test(arguments: ["Ruth Hale", "Walter J. Tillich", "Lillian Iris Little"])
    func letterSpacedCapitalsReadAsWordsInBothReaders(author: String) throws {
        let book = Book(kind: .memoir, title: "The Kitchen Table Years", author: author,
                        pages: [Page(id: "text", TextPage(text: "A page of the book."))])
        let (poppler, mupdf) = try Self.read(TestBooks.document(book))
        let expected = author.uppercased().split(separator: " ").map(String.init)
        for (reader, text) in [("pdftotext", poppler), ("PyMuPDF", mupdf)] {
            let found = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
            #expect(expected.allSatisfy(found.contains), "\(reader) reads \(text.debugDescription)")
        }
    }
}
