import Testing
import Foundation
import Synchronization
import BookModel
import BookConfig
import BookResolve
import BookLayout
import BookRender
import BookTestSupport
import BookRenderKit

/// The PDF and PNG files, checked with real readers (poppler, qpdf) and by decoding them again.
@Suite struct OutputTests {
    /// A small book with a JPEG of each kind and a PNG, written into a fresh folder.
    func makeBook() throws -> (Book, URL, [String: Data]) {
        let dir = try temporaryDirectory("output")
        let images: [String: Data] = [
            "baseline.jpg": try TestImages.gradientJPEG(width: 300, height: 400),
            "progressive.jpg": try TestImages.gradientJPEG(width: 400, height: 300, ["-progressive"]),
            "rotated.jpg": TestImages.withExifOrientation(try TestImages.gradientJPEG(width: 400, height: 300), 6),
            "cmyk.jpg": try TestImages.convert(["-size", "120x160", "xc:#CC3322", "-colorspace", "CMYK"], output: "out.jpg"),
            "alpha.png": try TestImages.convert(["-size", "200x200", "xc:none", "-fill", "#3366CC80", "-draw", "circle 100,100 100,20"]),
        ]
        for (name, data) in images { try data.write(to: dir.appendingPathComponent(name)) }
        let book = Book(kind: .memoir, title: "Output <&> Test", author: "Tester", language: "en-US",
                        created: "2023-04-05T06:07:08Z", theme: "memoir", format: BookFormat(trim: .preset("6x9")),
                        cover: Cover(title: "Output <&> Test", photo: .path("baseline.jpg")),
                        pages: [
                            Page(PhotoPage(image: .path("baseline.jpg"), caption: "Same photo again: stored once")),
                            Page(PhotoPage(image: .path("progressive.jpg"), caption: "Progressive")),
                            Page(PhotoPage(image: .path("rotated.jpg"), caption: "Rotated by EXIF")),
                            Page(PhotoPage(image: .path("cmyk.jpg"), caption: "CMYK")),
                            Page(PhotoPage(image: .path("alpha.png"), caption: "PNG with alpha")),
                            Page(TextPage(text: "Less <than> & more — “quotes”, emoji 🦊, עברית, 日本語.\n\n" + sampleProse(paragraphs: 12))),
                        ])
        return (book, dir, images)
    }

    @Test func pdfHasTrimSizeEmbeddedFontsAndJPEGsPassedThrough() throws {
        let (book, dir, images) = try makeBook()
        let tree = try TestBooks.document(book, folder: dir).layout()
        let pdf = dir.appendingPathComponent("out.pdf")
        try PrintPDF.write(tree, to: pdf)

        let info = try run("pdfinfo", [pdf.path]).stdout
        #expect(info.contains("Page size:       432 x 648 pts"))
        #expect(info.contains("Pages:           \(tree.pages.count)"))
        #expect(info.contains("Title:           Output <&> Test"))
        #expect(info.contains("Author:          Tester"))

        let fonts = try run("pdffonts", [pdf.path]).stdout.split(separator: "\n").dropFirst(2)
        #expect(!fonts.isEmpty)
        for line in fonts {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cols.count >= 5 && cols[cols.count - 5] == "yes", "font not embedded: \(line)")
        }

        // pdfimages -list: the RGB JPEGs are `jpeg` streams of their original size, each stored once.
        let list = try run("pdfimages", ["-list", pdf.path]).stdout
        let jpegRows = list.split(separator: "\n").filter { $0.contains(" jpeg ") }
        let objects = Set(jpegRows.map { $0.split(separator: " ", omittingEmptySubsequences: true)[10] })
        #expect(objects.count == 4, "baseline, progressive and rotated JPEGs, and the CMYK one made RGB: one object each\n\(list)")
        let extracted = dir.appendingPathComponent("x")
        try run("pdfimages", ["-j", pdf.path, extracted.path])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("x-") && $0.hasSuffix(".jpg") }
        let originals = Set(["baseline.jpg", "progressive.jpg", "rotated.jpg"].map { images[$0]! })
        let embedded = Set(try files.map { try Data(contentsOf: dir.appendingPathComponent($0)) })
        #expect(originals.isSubset(of: embedded), "every RGB JPEG is embedded byte for byte")
        #expect(!embedded.contains(images["cmyk.jpg"]!), "CMYK JPEGs are made RGB JPEGs, not passed through")

        let check = try run("qpdf", ["--check", pdf.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let text = try run("pdftotext", ["-enc", "UTF-8", pdf.path, "-"]).stdout
        #expect(text.contains("Less <than> & more"))
    }

    @Test func cmykAndRotatedImagesComeOutRightInThePDF() throws {
        let (book, dir, _) = try makeBook()
        let tree = try TestBooks.document(book, folder: dir).layout()
        let pdf = dir.appendingPathComponent("out.pdf")
        try PrintPDF.write(tree, to: pdf)
        // Rasterize the CMYK photo page with poppler and sample the photo's centre: red, not cyan.
        let cmykPage = try #require(tree.pages.first { $0.text.contains("CMYK") })
        let box = try #require(cmykPage.images.first)
        let prefix = dir.appendingPathComponent("cmyk").path
        try run("pdftoppm", ["-r", "72", "-f", "\(cmykPage.number)", "-l", "\(cmykPage.number)", "-png", "-singlefile", pdf.path, prefix])
        let rgb = try pixel(prefix + ".png", x: Int(box.frame.x + box.frame.width / 2), y: Int(box.frame.y + box.frame.height / 2))
        #expect(rgb.0 > 170 && rgb.1 < 90 && rgb.2 < 90, "CMYK #CC3322 should print red, got \(rgb)")

        // EXIF orientation 6: a 400×300 stored picture is drawn upright as 300 wide, 400 tall.
        let rotatedPage = try #require(tree.pages.first { $0.text.contains("Rotated") })
        let r = try #require(rotatedPage.images.first)
        #expect(abs(r.frame.width / r.frame.height - 0.75) < 0.01)
    }

    @Test func sameInputGivesSameBytesForPDFAndPNG() throws {
        let (book, dir, _) = try makeBook()
        var pdfs: [Data] = [], pngs: [[Data]] = []
        for run in 0..<2 {
            let tree = try TestBooks.document(book, folder: dir).layout()
            let pdf = dir.appendingPathComponent("run\(run).pdf")
            try PrintPDF.write(tree, to: pdf)
            pdfs.append(try Data(contentsOf: pdf))
            let files = try PNGPageWriter(dpi: 40).write(tree, to: dir.appendingPathComponent("png\(run)"))
            pngs.append(try files.map { try Data(contentsOf: $0) })
        }
        #expect(pdfs[0] == pdfs[1])
        #expect(pngs[0] == pngs[1])
        #expect(String(decoding: pdfs[0], as: UTF8.self).contains("D:20230405060708"), "the PDF's date is the book's, not the clock's")
    }

    /// Workers share the one layout when its texts are glyph runs, and lay the book out again only
    /// when a text needs Pango to draw it (a missing glyph's box); the files are the same bytes.
    @Test(arguments: [false, true])
    func parallelRasterWritesTheSameFilesAsSerial(withMissingGlyph: Bool) throws {
        let (made, dir, _) = try makeBook()
        var edited = made
        if withMissingGlyph { edited.pages.append(Page(TextPage(text: "An unassigned code point: \u{0378}."))) }
        let book = edited
        let tree = try TestBooks.document(book, folder: dir).layout()
        let serial = try PNGPageWriter(dpi: 40, spreads: true).write(tree, to: dir.appendingPathComponent("serial"))
        let layouts = Mutex(0)
        let parallel = try ParallelPNGWriter(dpi: 40, spreads: true, workers: 3)
            .write(tree, to: dir.appendingPathComponent("parallel")) {
                layouts.withLock { $0 += 1 }
                return try TestBooks.document(book, folder: dir).layout()
            }
        #expect(layouts.withLock { $0 } == (withMissingGlyph ? 3 : 0), "layouts made again for the workers")
        #expect(serial.map(\.lastPathComponent) == parallel.map(\.lastPathComponent))
        for (a, b) in zip(serial, parallel) {
            #expect(try Data(contentsOf: a) == Data(contentsOf: b), "\(a.lastPathComponent) differs between 1 and 3 workers")
        }
    }

    @Test func pngPagesAreTrimTimesDPIWithPHYs() throws {
        let (book, dir, _) = try makeBook()
        let tree = try TestBooks.document(book, folder: dir).layout()
        let out = dir.appendingPathComponent("png")
        let files = try PNGPageWriter(dpi: 50, spreads: true).write(tree, to: out, pages: [1, 2, 3])
        #expect(files.map(\.lastPathComponent) == ["page-001.png", "spread-001.png", "page-002.png", "page-003.png", "spread-002-003.png"])
        let size = try run("identify", ["-format", "%w %h %x %U", out.appendingPathComponent("page-002.png").path]).stdout
        #expect(size.hasPrefix("300 450 "), "6×9 in at 50 dpi is 300×450 px, got \(size)")
        let spread = try run("identify", ["-format", "%w %h", out.appendingPathComponent("spread-002-003.png").path]).stdout
        #expect(spread == "600 450")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no temporary files left behind")
    }

    @Test func pdfAndPNGBreakLinesTheSameWay() throws {
        // Layout is made once and drawn to both: poppler's text of the PDF page must start each line
        // where the page tree says.
        let (book, dir, _) = try makeBook()
        let tree = try TestBooks.document(book, folder: dir).layout()
        let pdf = dir.appendingPathComponent("out.pdf")
        try PrintPDF.write(tree, to: pdf)
        let page = try #require(tree.pages.first { $0.role == .text })
        let text = try run("pdftotext", ["-layout", "-enc", "UTF-8", "-f", "\(page.number)", "-l", "\(page.number)", pdf.path, "-"]).stdout
        let pdfLines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let body = try #require(page.textBoxes.max { $0.lines.count < $1.lines.count })
        let treeLines = body.layout.lines[body.lines].map { $0.text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{00AD}", with: "") }
        for (i, line) in treeLines.enumerated() where !line.isEmpty && line.unicodeScalars.allSatisfy({ $0.isASCII }) {
            let firstWord = String(line.prefix { $0 != " " }.prefix(8))
            #expect(pdfLines.contains { $0.hasPrefix(firstWord) }, "line \(i) (\(line.prefix(30))) not found in the PDF's text")
        }
    }

    func pixel(_ path: String, x: Int, y: Int) throws -> (Int, Int, Int) {
        let out = try run("convert", [path, "-format", "%[fx:int(255*p{\(x),\(y)}.r)] %[fx:int(255*p{\(x),\(y)}.g)] %[fx:int(255*p{\(x),\(y)}.b)]", "info:"]).stdout
        let v = out.split(separator: " ").compactMap { Int($0) }
        guard v.count == 3 else { throw ToolError("cannot read pixel: \(out)") }
        return (v[0], v[1], v[2])
    }
}
