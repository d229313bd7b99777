import Testing
import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout
import BookRender
import BookTestSupport
import BookRenderKit

/// The PDF is drawn once, page after page, and finished by appending to it: checked on the file
/// with qpdf and poppler.
@Suite struct StreamingPDFTests {
    /// A photo book of `pages` pages that shows `a.jpg` and `b.jpg` in turn.
    func photoBook(pages: Int) throws -> (Book, URL, Data) {
        let dir = try temporaryDirectory("streaming")
        let a = try TestImages.gradientJPEG(width: 320, height: 240)
        try a.write(to: dir.appendingPathComponent("a.jpg"))
        try TestImages.gradientJPEG(width: 240, height: 320).write(to: dir.appendingPathComponent("b.jpg"))
        let book = Book(kind: .memoir, title: "Streaming", language: "en-US", created: "2024-02-03T04:05:06Z",
                        theme: "memoir", format: BookFormat(trim: .preset("6x9")),
                        pages: (0..<pages).map { Page(PhotoPage(image: .path($0 % 2 == 0 ? "a.jpg" : "b.jpg"), caption: "Photo \($0 + 1)")) })
        return (book, dir, a)
    }

    /// The object numbers of the images `pdfimages -list` reports.
    func imageObjects(_ pdf: URL) throws -> Set<String> {
        let rows = try run("pdfimages", ["-list", pdf.path]).stdout.split(separator: "\n").dropFirst(2)
        return Set(rows.map { String($0.split(separator: " ", omittingEmptySubsequences: true)[10]) })
    }

    @Test func picturesRepeatedOverManyPagesAreStoredOnce() throws {
        let (book, dir, _) = try photoBook(pages: 70)
        let tree = try TestBooks.document(book, folder: dir).layout()
        let pdf = dir.appendingPathComponent("book.pdf")
        try PrintPDF.write(tree, to: pdf)
        #expect(try run("qpdf", ["--show-npages", pdf.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(tree.pages.count)")
        // Pages 1, 3, 5… and 2, 4, 6… each share one image object, from the first page to the 70th.
        #expect(try imageObjects(pdf).count == 2)
    }

    @Test func finishingIsAnIncrementalUpdateAfterTheDrawnPages() throws {
        let (book, dir, jpeg) = try photoBook(pages: 4)
        let tree = try TestBooks.document(book, folder: dir).layout()
        let pdf = dir.appendingPathComponent("book.pdf")
        try PrintPDF.write(tree, to: pdf)
        let bytes = try Data(contentsOf: pdf)
        let text = String(decoding: bytes, as: UTF8.self)

        // Two sections, the second pointing back at the first; the picture is in the file verbatim.
        #expect(text.components(separatedBy: "%%EOF").count == 3)
        let trailer = try #require(text.components(separatedBy: "trailer").last)
        #expect(trailer.contains("/Prev "))
        #expect(trailer.range(of: #"/ID \[<[0-9a-f]{32}><[0-9a-f]{32}>\]"#, options: .regularExpression) != nil)
        #expect(bytes.range(of: jpeg) != nil)

        let check = try run("qpdf", ["--check", pdf.path])
        #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(check.stdout)\(check.stderr)")
        // The newest version of each page is the one with the print boxes.
        let boxes = try run("pdfinfo", ["-box", "-f", "1", "-l", "\(tree.pages.count)", pdf.path]).stdout
        #expect(boxes.components(separatedBy: "TrimBox:").count - 1 == tree.pages.count)
        #expect(try run("pdfinfo", [pdf.path]).stdout.contains("CreationDate:    Sat Feb  3 04:05:06 2024 UTC"))
    }

    @Test func theIDChangesWithAPicturesContentAlone() throws {
        let (book, dir, jpeg) = try photoBook(pages: 4)
        func id() throws -> String {
            let pdf = dir.appendingPathComponent("book.pdf")
            try PrintPDF.write(try TestBooks.document(book, folder: dir).layout(), to: pdf)
            let text = String(decoding: try Data(contentsOf: pdf), as: UTF8.self)
            let match = try #require(text.range(of: #"/ID \[<[0-9a-f]{32}>"#, options: [.regularExpression, .backwards]))
            return String(text[match])
        }
        let first = try id()
        #expect(try id() == first)
        // Same size, same header, one byte of the compressed picture changed: a different document.
        var changed = jpeg
        changed[changed.count - 40] ^= 0x55
        try changed.write(to: dir.appendingPathComponent("a.jpg"))
        #expect(try id() != first)
    }

    @Test func thePDFIsTheSameWhateverTheNumberOfLayoutThreads() throws {
        let chapters = (1...6).map { n in Page(ChapterPage(title: "Chapter \(n)", text: sampleProse(paragraphs: 30, seed: UInt64(n)))) }
        let book = Book(kind: .memoir, title: "Threads", language: "en-US", created: "2024-02-03T04:05:06Z", theme: "memoir",
                        format: BookFormat(trim: .preset("6x9")), pages: chapters)
        let resolved = try TestBooks.document(book).resolve()
        let dir = try temporaryDirectory("threads")
        var files: [Data] = []
        for threads in [1, 2, 4] {
            let tree = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: threads).layout(resolved)
            let pdf = dir.appendingPathComponent("t\(threads).pdf")
            try PrintPDF.write(tree, to: pdf)
            files.append(try Data(contentsOf: pdf))
        }
        #expect(files[1] == files[0], "2 threads")
        #expect(files[2] == files[0], "4 threads")
    }

    @Test func aPictureCutShortWhileRenderingFailsNamingItAndWritesNothing() throws {
        let (book, dir, jpeg) = try photoBook(pages: 4)
        let tree = try TestBooks.document(book, folder: dir).layout()
        try jpeg.prefix(jpeg.count / 2).write(to: dir.appendingPathComponent("a.jpg"))
        let pdf = dir.appendingPathComponent("book.pdf")
        do {
            try PrintPDF.write(tree, to: pdf)
            Issue.record("rendering went on with a picture cut short")
        } catch {
            #expect("\(error)".contains("a.jpg"), "\(error)")
            #expect("\(error)".contains("($.pages[0])"), "the page and the JSON path of the first page using it: \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: pdf.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a.jpg", "b.jpg"], "no temporary file left behind")
    }

    /// A memoir long enough that its chapters are laid out by helper threads while pages are drawn.
    func longMemoir() throws -> (ResolvedBook, PDFDocument) {
        let chapters = (1...10).map { n in
            Page(ChapterPage(title: "Chapter \(n)", text: sampleProse(paragraphs: 24, seed: UInt64(n))))
        }
        let book = Book(kind: .memoir, title: "Drawn as laid out", language: "en-US", created: "2024-02-03T04:05:06Z",
                        theme: "memoir", format: BookFormat(trim: .preset("6x9")), pages: chapters)
        let resolved = try TestBooks.document(book).resolve()
        let document = PDFDocument(trim: resolved.trim, geometry: PrintGeometry(nil), title: book.title,
                                   author: book.author, created: book.created)
        return (resolved, document)
    }

    @Test(arguments: [2, 3])
    func pagesDrawnAsTheyAreLaidOutGiveTheBytesOfATreeDrawnAfter(threads: Int) throws {
        let (resolved, document) = try longMemoir()
        let dir = try temporaryDirectory("drawn-as-laid-out")
        let whole = dir.appendingPathComponent("whole.pdf"), streamed = dir.appendingPathComponent("streamed.pdf")
        let tree = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: 1).layout(resolved)
        try PrintPDF.write(tree, to: whole)

        var handed: [Int] = []
        let streamedTree = try PrintPDF.write(to: streamed, document: document) { drawPage in
            try BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: threads).layout(resolved) { page in
                handed.append(page.number)
                try drawPage(page)
            }
        }
        #expect(tree.pages.count > 60)
        #expect(handed == Array(1...tree.pages.count), "every page once, in order")
        #expect(streamedTree.pages.count == tree.pages.count)
        let same = try Data(contentsOf: streamed) == Data(contentsOf: whole)
        #expect(same, "\(threads) threads: the PDF drawn while laying out differs from the one drawn after")
        // The text goes along with the glyphs: the last chapter opens with its first words.
        let text = try run("pdftotext", [streamed.path, "-"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let opening = sampleProse(paragraphs: 24, seed: 10).split(separator: " ").prefix(3).joined(separator: " ")
        #expect(text.contains("Chapter 10 " + opening), "\(opening)")
    }

    /// The contents are filled in once every chapter has its page, so they are drawn last; the
    /// pages before and after them are drawn as they come, and the finished file has every page,
    /// and its structure, in the book's order.
    @Test func contentsDrawnLastArePutInTheirPlace() throws {
        let chapters = (1...12).map { n in
            Page(ChapterPage(title: "Chapter \(n)", text: sampleProse(paragraphs: 12, seed: UInt64(n))))
        }
        let book = Book(kind: .memoir, title: "Contents last", language: "en-US", created: "2024-02-03T04:05:06Z",
                        theme: "memoir", format: BookFormat(trim: .preset("6x9")),
                        matter: BookMatter(dedication: "For the readers.", contents: true), pages: chapters)
        let resolved = try TestBooks.document(book).resolve()
        let document = PDFDocument(trim: resolved.trim, geometry: PrintGeometry(nil), title: book.title,
                                   author: book.author, created: book.created)
        let dir = try temporaryDirectory("contents-last")
        let whole = dir.appendingPathComponent("whole.pdf"), streamed = dir.appendingPathComponent("streamed.pdf")
        let tree = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: 1).layout(resolved)
        try PrintPDF.write(tree, to: whole)
        let contents = tree.pages.filter { $0.role == .contents }.map(\.number)
        #expect(!contents.isEmpty)

        var handed: [Int] = []
        _ = try PrintPDF.write(to: streamed, document: document) { drawPage in
            var layouter = BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: 2)
            layouter.keepsHandedOverText = false
            layouter.handsOverContentsLast = true
            return try layouter.layout(resolved) { page in
                handed.append(page.number)
                try drawPage(page)
            }
        }
        let others = tree.pages.map(\.number).filter { !contents.contains($0) }
        #expect(handed == others + contents, "the contents last, every other page in order")

        let check = try run("qpdf", ["--check", streamed.path])
        #expect(check.status == 0 && !check.stdout.contains("WARNING"), "\(check.stdout)\(check.stderr)")
        // Page by page the same pictures and text as the file drawn in order, and the same structure.
        let pictures = try temporaryDirectory("contents-last-pages")
        for (name, pdf) in [("w", whole), ("s", streamed)] {
            _ = try run("pdftoppm", ["-r", "12", "-png", pdf.path, pictures.appendingPathComponent(name).path])
        }
        let drawn = try FileManager.default.contentsOfDirectory(atPath: pictures.path).filter { $0.hasPrefix("w-") }.sorted()
        #expect(drawn.count == tree.pages.count)
        for file in drawn {
            let same = try Data(contentsOf: pictures.appendingPathComponent(file))
                == Data(contentsOf: pictures.appendingPathComponent("s" + file.dropFirst()))
            #expect(same, "page \(file) differs from the page drawn in order")
        }
        #expect(try run("pdftotext", [streamed.path, "-"]).stdout == run("pdftotext", [whole.path, "-"]).stdout)
        let structure = try run("pdfinfo", ["-struct-text", streamed.path]).stdout
        #expect(structure == (try run("pdfinfo", ["-struct-text", whole.path]).stdout))
        #expect(structure.contains("Contents") && structure.contains("Chapter 12"))
        // The bookmarks lead to the same page numbers, and the pages are labelled alike.
        func bookmarksAndLabels(_ pdf: URL) throws -> String {
            let json = try run("qpdf", ["--json", "--json-key=outlines", "--json-key=pagelabels", pdf.path]).stdout
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let outlines = (object["outlines"] as? [[String: Any]] ?? []).map { "\($0["title"] ?? "") \($0["destpageposfrom1"] ?? "")" }
            let labels = (object["pagelabels"] as? [[String: Any]] ?? []).map { label in
                "\(label["index"] ?? "") " + ((label["label"] as? [String: Any]) ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            return (outlines + labels).joined(separator: "\n")
        }
        let marks = try bookmarksAndLabels(streamed)
        #expect(marks == (try bookmarksAndLabels(whole)))
        #expect(marks.contains("Chapter 12 \(try #require(tree.chapters.last?.page))"))
    }

    @Test func aPageThatCannotBeDrawnStopsTheExportAndLeavesTheOldFile() throws {
        let (resolved, document) = try longMemoir()
        let dir = try temporaryDirectory("drawn-as-laid-out-fails")
        let pdf = dir.appendingPathComponent("book.pdf")
        try Data("the old PDF".utf8).write(to: pdf)
        struct DiskFull: Error {}
        var drawn = 0
        #expect(throws: DiskFull.self) {
            _ = try PrintPDF.write(to: pdf, document: document) { drawPage in
                try BookLayouter(typesetter: try TestFonts.typesetter(), textThreads: 2).layout(resolved) { page in
                    if page.number == 30 { throw DiskFull() }
                    try drawPage(page)
                    drawn += 1
                }
            }
        }
        #expect(drawn == 29)
        #expect(try String(contentsOf: pdf, encoding: .utf8) == "the old PDF")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left == ["book.pdf"], "no partial file left: \(left)")
    }
}
