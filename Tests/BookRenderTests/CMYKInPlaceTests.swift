import Foundation
import Testing
@testable import BookRender
import BookModel
import BookTestSupport
import BookRenderKit

/// A book's CMYK file is converted where cairo drew it: the converted contents and the finishing
/// are appended as updates, so the pictures (CMYK JPEGs, their dictionaries completed as they are
/// drawn) are written once. A file whose update would leave much of it behind is rewritten whole.
@Suite struct CMYKInPlaceTests {
    static let options = CMYKConverter.Options.ingramSpark

    /// `pages` photo pages of a picture each (red, green, blue, red…) (`prose` words of caption each), and with `grey` one
    /// more of a grey JPEG, drawn as a CMYK file is drawn before its conversion; the drawn file and what its pictures look like.
    static func drawn(_ label: String, pages: Int, prose: Int = 0, grey: Bool = false) throws -> (dir: URL, file: URL, tree: PageTree, plan: FinishingPlan, transform: CMYKTransform, digest: String) {
        let dir = try temporaryDirectory(label)
        let colours = ["#CC3322", "#33AA44", "#2244CC"]
        for (i, colour) in colours.enumerated() {
            try TestImages.convert(["-size", "300x400", "xc:\(colour)"], output: "out.jpg").write(to: dir.appendingPathComponent("p\(i).jpg"))
        }
        try TestImages.convert(["-seed", "7", "-size", "900x1200", "plasma:", "-colorspace", "Gray"], output: "out.jpg")
            .write(to: dir.appendingPathComponent("grey.jpg"))
        let caption = prose > 0 ? sampleProse(paragraphs: prose / 60 + 1).split(separator: " ").prefix(prose).joined(separator: " ") : "Red"
        let book = Book(kind: .memoir, title: "In place", author: "Tester", language: "en-US",
                        created: "2023-04-05T06:07:08Z", theme: "memoir", format: BookFormat(trim: .preset("6x9")),
                        cover: Cover(title: "In place"),
                        pages: (0..<pages).map { Page(PhotoPage(image: .path("p\($0 % colours.count).jpg"), caption: caption)) }
                            + (grey ? [Page(PhotoPage(image: .path("grey.jpg"), caption: caption))] : []))
        let tree = try TestBooks.document(book, folder: dir).layout()
        let transform = try CMYKTransform(profile: try CMYKConverter.outputProfile(options), inkLimit: 237)
        let pictures = CMYKPictures(transform: transform, quality: 92, inkLimit: 237, folder: dir.appendingPathComponent("cache"))
        try pictures.prepare(PrintPDF.pictureAssets(tree, pages: nil), threads: 2)
        let file = dir.appendingPathComponent("drawn.pdf")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let drawn = try PDFWriter.draw(tree, into: file, pages: nil, opaque: true, tagged: true, for: file, threads: 2, cmyk: pictures)
        // As `PrintPDF` finishes it: the contents marked as they were drawn are left as they are.
        var plan = PrintPDF.finishingPlan(tree, pages: nil, profile: nil)
        plan.markedContents = drawn.markedContents
        return (dir, file, tree, plan, transform, drawn.digest)
    }

    @Test func theDrawnBytesStayAndThePicturesKeepTheirColour() throws {
        let (dir, file, tree, plan, transform, digest) = try Self.drawn("cmyk-in-place", pages: 3, grey: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: file)
        let drawn = String(decoding: before, as: UTF8.self)
        #expect(drawn.components(separatedBy: CMYKImageDictionary.decode).count - 1 == 3 && !drawn.contains("/Interpolate true"),
                "each picture's dictionary is completed as it is drawn, and none asks for smoothing")
        try CMYKConverter.convertDrawnInPlace(file, as: file, plan: plan, options: Self.options,
                                              transform: transform, inputDigest: digest)
        let after = try Data(contentsOf: file)
        #expect(after.starts(with: Data("%PDF-1.3".utf8)), "PDF/X-1a:2001 is PDF 1.3")
        #expect(after.count > before.count)
        #expect(after.prefix(before.count).dropFirst(8) == before.dropFirst(8), "what cairo drew is kept byte for byte, the header aside")

        let check = try run("qpdf", ["--check", file.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let images = try run("pdfimages", ["-list", file.path]).stdout.split(separator: "\n").dropFirst(2)
        #expect(images.count == 4, "one picture a page: \(images)")
        let update = String(decoding: after.dropFirst(before.count), as: UTF8.self)
        for row in images {
            let cols = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cols[8] == "jpeg" && cols[9] == "no", "\(row)")
            let dictionary = try run("qpdf", ["--show-object=\(cols[10])", file.path]).stdout
            #expect(!dictionary.contains("/Interpolate true"), "\(dictionary)")
            if cols[5] == "gray" {
                // A grey JPEG is PDF/X as drawn: its bytes are not written again.
                #expect(!update.contains("\n\(cols[10]) 0 obj"), "the grey picture \(cols[10]) is in the update")
            } else {
                #expect(cols[5] == "cmyk" && dictionary.contains("/Decode [ 1 0 1 0 1 0 1 0 ]"), "\(row)\n\(dictionary)")
            }
        }
        let page = try #require(tree.pages.first { !$0.images.isEmpty })
        let box = try #require(page.images.first)
        let pixel = try PDFReaders.rgbPixel(file, page: page.number, x: box.frame.x + box.frame.width / 2, y: box.frame.y + box.frame.height / 2)
        #expect(pixel.0 > 150 && pixel.1 < 100 && pixel.2 < 100, "\(pixel), want red")
        let rgbOperators = try run("qpdf", ["--qdf", "--object-streams=disable", file.path, "-"]).stdout
            .split(separator: "\n").filter { $0.hasSuffix(" rg") || $0.hasSuffix(" RG") }
        #expect(rgbOperators.isEmpty, "\(rgbOperators.prefix(3))")
        #expect(try PDFReaders.ghostscriptMessages(file) == "", "Ghostscript renders every page without a word")
    }

    /// A long text with few pictures: its contents are most of the file, and an update would keep
    /// their old versions too.
    @Test func aFileMostlyOfTextIsRewrittenWhole() throws {
        let (dir, file, _, plan, transform, digest) = try Self.drawn("cmyk-rewritten", pages: 8, prose: 400)
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Data(contentsOf: file)
        try CMYKConverter.convertDrawnInPlace(file, as: file, plan: plan, options: Self.options,
                                              transform: transform, inputDigest: digest)
        let after = try Data(contentsOf: file)
        #expect(after.starts(with: Data("%PDF-1.3".utf8)))
        #expect(after.prefix(before.count).dropFirst(8) != before.dropFirst(8), "rewritten, not appended to")
        let check = try run("qpdf", ["--check", file.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("drawn.pdf.") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// The converted streams and the finishing go in one update only where they change different
    /// objects: each would otherwise be made from the other's old version.
    @Test func anObjectChangedTwiceIsRefusedBeforeAnythingIsWritten() throws {
        let (dir, file, _, _, _, _) = try Self.drawn("cmyk-overlap", pages: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = try QPDFDocument(reading: file)
        let page = try doc.page(0)
        let id = try #require(try doc.objectID(page))
        try doc.set(page, "/Rotate", try doc.integer(0))
        let other = try #require(try doc.objectID(try doc.get(page, "/Contents")))
        #expect(throws: IncrementalUpdate.Overlap.self) { try IncrementalUpdate(doc, adding: [(id, Data("<< >>".utf8))]) }
        _ = try IncrementalUpdate(doc, adding: [(other, Data("<< /Length 0 >>\nstream\n\nendstream".utf8))])
        _ = try IncrementalUpdate(doc, adding: [(id, Data("<< >>".utf8))], withItsOwnChanges: false)
    }

    /// cairo's dictionary for a CMYK JPEG, completed at the same length.
    @Test func aCMYKJPEGDictionaryIsCompletedAtItsLength() throws {
        let cairo = "endobj\n54 0 obj\n<< /Length 56 0 R\n   /Type /XObject\n   /Subtype /Image\n   /Width 2250\n   /Height 3000\n"
            + "   /ColorSpace /DeviceCMYK\n   /Interpolate true\n   /BitsPerComponent 8\n   /Filter /DCTDecode\n>>\nstream\n"
        let written = Array(cairo.utf8)
        let fixed = try #require(CMYKImageDictionary.completed(endingWith: written))
        let start = cairo.range(of: "<< /Length")!.lowerBound.utf16Offset(in: cairo)
        #expect(fixed.count == written.count - start)
        let text = String(decoding: fixed, as: UTF8.self)
        #expect(text.hasPrefix("<< /Length 56 0 R /Type /XObject /Subtype /Image /Width 2250 /Height 3000 /ColorSpace /DeviceCMYK"))
        #expect(text.contains("/Decode [1 0 1 0 1 0 1 0]") && !text.contains("/Interpolate") && text.hasSuffix(">>\nstream\n"))
        // An RGB picture, one with its /Decode already, or a write that is not a dictionary: left alone.
        #expect(CMYKImageDictionary.completed(endingWith: Array(cairo.replacingOccurrences(of: "DeviceCMYK", with: "DeviceRGB").utf8)) == nil)
        #expect(CMYKImageDictionary.completed(endingWith: Array(cairo.replacingOccurrences(of: "   /Interpolate true\n", with: "   /Decode [1 0 1 0 1 0 1 0]\n").utf8)) == nil)
        #expect(CMYKImageDictionary.completed(endingWith: Array("q 1 0 0 1 0 0 cm /x5 Do Q\n".utf8)) == nil)
        // No room for the entry (cairo's indentation is what pays for it): left for the conversion.
        let tight = "<< /Length 5 0 R /Subtype /Image /ColorSpace /DeviceCMYK /Filter /DCTDecode\n>>\nstream\n"
        #expect(CMYKImageDictionary.completed(endingWith: Array(tight.utf8)) == nil)
    }
}
