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

    /// Text as compared here: compatibility forms and quotation marks folded, white space
    /// collapsed, and hyphens dropped: the hyphen drawn where a line breaks inside a word is a
    /// hyphen-minus in the PDF's text (`RunText`), which a reader joins to the next line's letters.
    static func normalized(_ s: String) -> String {
        let folded = s.precomposedStringWithCompatibilityMapping
            .replacingOccurrences(of: "\u{AD}", with: "").replacingOccurrences(of: "-", with: "")
            .map { c -> String in "‘’".contains(c) ? "'" : "“”".contains(c) ? "\"" : String(c) }.joined()
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The paragraphs of the book's text pages, in order.
    static func bookParagraphs(_ sample: String) throws -> [String] {
        let data = try Data(contentsOf: Repository.samples.appendingPathComponent(sample))
        let book = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let texts = (book["pages"] as! [[String: Any]]).filter { $0["type"] as? String == "text" }.compactMap { $0["text"] as? String }
        return texts.flatMap { $0.components(separatedBy: "\n\n") }.map(normalized).filter { !$0.isEmpty }
    }

    static func xmp(_ pdf: TaggedPDF) -> String {
        guard let ref = pdf.catalog["/Metadata"] as? String, let data = (pdf.objects[ref] as? [String: Any])?["data"] as? [UInt8] else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    @Test func memoirParagraphsAreOneElementEachInTheBooksOrder() throws {
        let dir = try temporaryDirectory("tagged-paragraphs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try TaggedPDF(try export("memoir/book.json", in: dir))
        let elements = pdf.elements.flatMap(\.all).filter { $0.type == "P" }.map { Self.normalized($0.text) }
        let paragraphs = try Self.bookParagraphs("memoir/book.json")
        #expect(paragraphs.count > 20)
        // Each paragraph of the text is exactly one element's text, and they come in order.
        var next = elements.startIndex
        for (n, paragraph) in paragraphs.enumerated() {
            guard let found = elements[next...].firstIndex(of: paragraph) else {
                let near = elements[next...].prefix(2).map { String($0.prefix(120)) }
                Issue.record("paragraph \(n + 1) is no element of its own after element \(next): \(paragraph.prefix(120))…; next elements: \(near)")
                return
            }
            next = found + 1
        }
    }

    @Test func aParagraphAPageBreakDividesIsOneElementOnBothPages() throws {
        let dir = try temporaryDirectory("tagged-divided")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try TaggedPDF(try export("memoir/book.json", in: dir))
        let paragraphs = pdf.elements.flatMap(\.all).filter { $0.type == "P" }
        let divided = paragraphs.filter { Set($0.content.map(\.page)).count > 1 }
        #expect(divided.count >= 3, "\(divided.count) paragraph(s) on more than one page")
        for p in divided {
            let pages = p.content.map(\.page)
            #expect(pages == pages.sorted() && pages.last! - pages.first! == pages.count - 1, "\(p.ref) on pages \(pages)")
        }
        #expect(PDFUAChecks.structureFailures(pdf).isEmpty, "\(PDFUAChecks.structureFailures(pdf))")
    }

    @Test func chaptersAreHeadingsBelowTheTitleOrFirstWithoutIt() throws {
        let dir = try temporaryDirectory("tagged-headings")
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try TaggedPDF(try export("memoir/book.json", in: dir)).elements.flatMap(\.all)
        // The title, then the contents and each of the three chapters a level below it.
        #expect(whole.filter { $0.type.hasPrefix("H") }.map(\.type) == ["H1", "H2", "H2", "H2", "H2"])
        let sections = whole.filter { $0.type == "H2" }.map { Self.normalized($0.text) }
        #expect(sections.first == "Contents" && sections.dropFirst().first == "The House on Linden Street", "\(sections)")
        // Pages without the cover and the contents: the first chapter's heading is the first, so level 1.
        let part = try TaggedPDF(try export("memoir/book.json", ["--pages", "3-5"], in: dir)).elements.flatMap(\.all)
        #expect(part.filter { $0.type.hasPrefix("H") }.map(\.type) == ["H1"])
    }

    @Test(arguments: AccessiblePDFTests.samples)
    func everySampleMeetsPDFUA(_ sample: String) throws {
        let dir = try temporaryDirectory("pdfua")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try TaggedPDF(try export(sample, in: dir))
        let failures = PDFUAChecks.failures(pdf, xmp: Self.xmp(pdf))
        #expect(failures.isEmpty, "\(failures)")
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

    @Test func untaggedClaimsNoConformance() throws {
        let dir = try temporaryDirectory("pdfua-untagged")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try TaggedPDF(try export("storybook/book.json", ["--no-tags"], in: dir))
        #expect(pdf.catalog["/StructTreeRoot"] == nil && pdf.catalog["/MarkInfo"] == nil)
        #expect(!Self.xmp(pdf).contains("pdfuaid"))
        // What does not depend on the tags is there all the same.
        #expect(PDFUAChecks.fontFailures(pdf).isEmpty, "\(PDFUAChecks.fontFailures(pdf))")
        #expect((pdf.resolve(pdf.catalog["/ViewerPreferences"]) as? [String: Any])?["/DisplayDocTitle"] as? Bool == true)
    }

    /// poppler's reading of the tags: the same elements in the same order as qpdf's, one `P` per
    /// paragraph of the book at least. poppler 22 ends an element's text at the end of the first
    /// marked content nested in it (the `/ActualText` span cairo writes for a space at a line's end
    /// or a ligature), so its text is only compared where it has some, and only its first words.
    @Test func pdfinfoReadsTheMemoirParagraphByParagraph() throws {
        let dir = try temporaryDirectory("struct-text")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try export("memoir/book.json", in: dir)
        let out = try run("pdfinfo", ["-struct-text", file.path])
        #expect(out.status == 0, "\(out.stderr)")
        // The elements under `Document`, two spaces in, each with the text poppler gives it.
        var poppler: [(type: String, text: String)] = []
        for line in out.stdout.split(separator: "\n") {
            if line.hasPrefix("  "), !line.hasPrefix("   ") {
                poppler.append((String(line.dropFirst(2).split(separator: " ").first ?? ""), ""))
            } else if line.hasPrefix("    \""), poppler.last?.text.isEmpty == true {
                poppler[poppler.count - 1].text = Self.normalized(String(line.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()))
            }
        }
        let document = try TaggedPDF(file).elements.first
        #expect(document?.type == "Document")
        let kids = document?.kids ?? []
        #expect(poppler.map(\.type) == kids.map(\.type))
        let paragraphs = try Self.bookParagraphs("memoir/book.json")
        #expect(poppler.filter { $0.type == "P" }.count >= paragraphs.count)
        for (read, kid) in zip(poppler, kids) where kid.type == "P" {
            let words = read.text.split(separator: " ").prefix(4).joined(separator: " ")
            #expect(words.isEmpty || words.unicodeScalars.contains { (0xE000...0xF8FF).contains($0.value) } || Self.normalized(kid.text).hasPrefix(words),
                    "poppler: \(read.text) | qpdf: \(kid.text.prefix(80))")
        }
        // Where poppler reads a paragraph's first words, it reads them at the start of an element.
        var starts = 0
        for paragraph in paragraphs {
            let words = paragraph.split(separator: " ").prefix(4).joined(separator: " ")
            if poppler.contains(where: { $0.type == "P" && $0.text.hasPrefix(words) }) { starts += 1 }
        }
        #expect(starts > paragraphs.count / 2, "\(starts) of \(paragraphs.count) paragraphs start a P element in poppler's reading")
    }
}
