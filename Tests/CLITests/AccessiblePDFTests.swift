import Testing
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import BookTestSupport

/// The exported PDF as a screen reader, a PDF reader's bookmarks and page box, and an archive see
/// it: the structure tree, alternate text, outline, page labels and XMP metadata.
@Suite struct AccessiblePDFTests {
    static let samples = ["memoir/book.json", "storybook/book.json", "apps/memoirai/storybook.json",
                          "apps/roger/story.json", "apps/infinitestories/story.json"]

    func export(_ sample: String, _ extra: [String] = [], in dir: URL) throws -> URL {
        let pdf = dir.appendingPathComponent("book.pdf")
        let r = try run(try Repository.binary.path, ["export", Repository.samples.appendingPathComponent(sample).path,
                                                     "-o", pdf.path] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return pdf
    }

    func pdfinfo(_ args: [String]) throws -> String { try run("pdfinfo", args).stdout }

    /// A structure element: its type, its `/Alt`, and its children in order.
    struct Element { var type: String; var alt: String?; var kids: [Element] }

    /// The structure tree from qpdf's JSON, from the catalog's `/StructTreeRoot` down.
    func structure(_ pdf: URL) throws -> [Element] {
        let json = try PDFReaders.QPDFJSON(pdf)
        guard let rootRef = json.catalog["/StructTreeRoot"] as? String, let root = json.dict(rootRef) else { return [] }
        func elements(_ k: Any?) -> [Element] {
            if let array = k as? [Any] { return array.flatMap(elements) }
            guard let ref = k as? String, let d = json.dict(ref), let s = d["/S"] as? String else { return [] }
            return [Element(type: String(s.dropFirst()), alt: PDFReaders.text(d["/Alt"]), kids: elements(d["/K"]))]
        }
        return elements(root["/K"])
    }

    @Test(arguments: samples)
    func everySampleIsTagged(_ sample: String) throws {
        let dir = try temporaryDirectory("tagged")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try export(sample, in: dir)
        #expect(try pdfinfo([pdf.path]).contains("Tagged:          yes"))
        let tree = try pdfinfo(["-struct-text", pdf.path])
        #expect(tree.hasPrefix("Document\n"), "\(tree.prefix(200))")
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
    }

    @Test func memoirTreeHasTheTitleChaptersParagraphsAndPhotosWithCaptionsInOrder() throws {
        let dir = try temporaryDirectory("tagged-memoir")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try export("memoir/book.json", in: dir)
        let tree = try structure(pdf)
        #expect(tree.count == 1 && tree.first?.type == "Document")
        let kids = tree.first?.kids ?? []
        #expect(Set(kids.map(\.type)).isSubset(of: ["H1", "H2", "P", "Figure", "Caption"]))
        let book = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.samples.appendingPathComponent("memoir/book.json"))) as! [String: Any]
        let pages = book["pages"] as! [[String: Any]]
        let chapters = pages.filter { $0["type"] as? String == "chapter" }
        // The cover's title, then the contents' heading and one per chapter, a level below it.
        #expect(kids.filter { $0.type == "H1" }.count == 1)
        #expect(kids.filter { $0.type == "H2" }.count == chapters.count + 1)
        // The cover picture first, then each photo described by its caption, in the book's order.
        let figures = kids.filter { $0.type == "Figure" }
        let captions = pages.filter { $0["type"] as? String == "photo" }.compactMap { $0["caption"] as? String }
        #expect(figures.count == 1 + captions.count)
        #expect(figures.dropFirst().map(\.alt) == captions.map { Optional($0) })
        #expect(figures.first?.alt?.hasPrefix(book["title"] as! String) == true, "\(figures.first?.alt ?? "none")")
        // Each caption comes right after its picture, and a chapter's heading before its text.
        for (i, kid) in kids.enumerated() where kid.type == "Caption" { #expect(i > 0 && kids[i - 1].type == "Figure") }
        let contents = kids.firstIndex { $0.type == "H2" } ?? 0
        let firstHeading = kids[(contents + 1)...].firstIndex { $0.type == "H2" } ?? 0
        let secondHeading = kids[(firstHeading + 1)...].firstIndex { $0.type == "H2" } ?? 0
        #expect(secondHeading > firstHeading + 1 && kids[secondHeading + 1].type == "P")
    }

    @Test func storybookFiguresAreDescribedByCaptionSceneOrText() throws {
        let dir = try temporaryDirectory("tagged-storybook")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try export("storybook/book.json", in: dir)
        let tree = try structure(pdf)
        #expect(tree.count == 1 && tree.first?.type == "Document")
        let kids = tree.first?.kids ?? []
        let book = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.samples.appendingPathComponent("storybook/book.json"))) as! [String: Any]
        let pages = (book["pages"] as! [[String: Any]]).filter { $0["image"] != nil }
        // The cover, then each picture page's words for its picture (a spread's on both halves).
        var expected: [String] = []
        for page in pages {
            let alt = [page["caption"], page["scene"], page["text"]].compactMap { $0 as? String }.first { !$0.isEmpty } ?? ""
            expected += page["type"] as? String == "spread" ? [alt, alt] : [alt]
        }
        let figures = kids.filter { $0.type == "Figure" }
        #expect(figures.dropFirst().map { $0.alt ?? "" } == expected.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(figures.allSatisfy { !($0.alt ?? "").isEmpty })
        #expect(kids.contains { $0.type == "H1" } && kids.contains { $0.type == "P" })
        // Each picture comes before the words printed with it.
        #expect(kids.first?.type == "Figure")
    }

    @Test func noTagsLeavesTheStructureOut() throws {
        let dir = try temporaryDirectory("untagged")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try export("memoir/book.json", ["--no-tags"], in: dir)
        #expect(try pdfinfo([pdf.path]).contains("Tagged:          no"))
        #expect(try structure(pdf).isEmpty)
        // Outline, labels and metadata do not depend on the tags.
        #expect(try PDFReaders.QPDFJSON(pdf).catalog["/Outlines"] != nil)
    }

    @Test func aPlainExportHasOutlinePageLabelsAndXMP() throws {
        let dir = try temporaryDirectory("outline")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = try export("memoir/book.json", in: dir)
        let r = try run("qpdf", ["--json", "--json-key=outlines", "--json-key=pagelabels", pdf.path])
        let json = try JSONSerialization.jsonObject(with: r.stdoutData) as! [String: Any]
        let outlines = json["outlines"] as! [[String: Any]]
        #expect(outlines.map { $0["title"] as? String } == ["The House on Linden Street", "Summers at Birch Lake", "What the Kitchen Knew"])
        #expect(outlines.allSatisfy { ($0["destpageposfrom1"] as? Int ?? 0) > 1 })
        let labels = json["pagelabels"] as! [[String: Any]]
        #expect(labels.count == 2)
        #expect((labels.first?["label"] as? [String: Any])?["/P"] as? String == "u:Cover")
        #expect((labels.last?["label"] as? [String: Any])?["/St"] as? Int == 2)

        let xmp = try XMPPacket(pdf)
        #expect(xmp.text.contains("<rdf:li xml:lang=\"x-default\">The Kitchen Table Years</rdf:li>"))
        #expect(xmp.text.contains("<rdf:li>Ruth Hale</rdf:li>"))
        #expect(xmp.text.contains("<rdf:li>en-US</rdf:li>"))
        #expect(xmp.text.contains("<xmp:CreateDate>2024-03-14T18:30:00Z</xmp:CreateDate>"))
        #expect(xmp.text.range(of: #"<pdf:Producer>bookrender \d+\.\d+\.\d+</pdf:Producer>"#, options: .regularExpression) != nil)
        #expect(xmp.wellFormed, "\(xmp.text)")
    }

    @Test func exportingTwiceGivesTheSameBytes() throws {
        let dir = try temporaryDirectory("tagged-twice")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try export("storybook/book.json", in: dir)
        let kept = dir.appendingPathComponent("first.pdf")
        try FileManager.default.moveItem(at: first, to: kept)
        let second = try export("storybook/book.json", in: dir)
        #expect(try Data(contentsOf: kept) == Data(contentsOf: second))
    }

    /// The catalog's XMP packet, and whether an XML parser takes it whole.
    struct XMPPacket {
        var text: String
        var wellFormed: Bool

        init(_ pdf: URL) throws {
            let json = try PDFReaders.QPDFJSON(pdf)
            let ref = json.catalog["/Metadata"] as! String
            let dir = try temporaryDirectory("xmp")
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("xmp.xml")
            let id = ref.split(separator: " ").first!
            try run("qpdf", ["--show-object=\(id)", "--raw-stream-data", pdf.path]).stdoutData.write(to: file)
            text = try String(contentsOf: file, encoding: .utf8)
            wellFormed = XMLParser(data: Data(text.utf8)).parse()
        }
    }
}
