import Foundation
import Testing
@testable import BookRender
import BookBase
import BookResolve
import BookTestSupport
import BookRenderKit

/// Pictures for a CMYK printer: converted once to CMYK JPEGs through the press profile, held
/// under the ink limit in the file itself, kept by content in the user's cache and read back.
@Suite struct CMYKPicturesTests {
    static func pictures(folder: URL, limit: Double? = 237) throws -> CMYKPictures {
        let transform = try CMYKTransform(profile: try CMYKConverter.outputProfile(.ingramSpark))
        return CMYKPictures(transform: transform, quality: 92, inkLimit: limit, folder: folder)
    }

    /// A picture of saturated dark colours with hard edges: where compression overshoots most.
    /// Seeded, so every run measures the same pixels.
    static func darkPicture() throws -> ImageAsset {
        let data = try TestImages.convert(["-seed", "11", "-size", "320x240", "plasma:#200010-#102040", "-fill", "#000000",
                                           "-draw", "rectangle 100,60 220,180", "-fill", "#8B0000", "-draw", "circle 60,60 90,60"],
                                          output: "out.jpg")
        return ImageAsset(data: data, info: try ImageProbe.probe(data), origin: "dark.jpg")
    }

    /// The most ink (percent) a pixel of a CMYK JPEG carries, as Ghostscript draws it in a PDF at
    /// one device pixel per picture pixel.
    static func mostInk(_ jpeg: ImageAsset, in dir: URL) throws -> Double {
        let (w, h) = (jpeg.info.pixelWidth, jpeg.info.pixelHeight)
        let out = OneImagePDF.make(image: jpeg.data, width: w, height: h,
                                   imageEntries: "/ColorSpace /DeviceCMYK /BitsPerComponent 8 /Decode [1 0 1 0 1 0 1 0] /Filter /DCTDecode")
        let pdf = dir.appendingPathComponent("picture.pdf")
        try out.write(to: pdf)
        return try #require(PDFReaders.inkCoverage(pdf, dpi: 72).first).maximum
    }

    @Test func aPictureIsHeldUnderTheLimitInTheFileItself() throws {
        let dir = try temporaryDirectory("cmyk-picture-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let asset = try Self.darkPicture()
        let held = try Self.pictures(folder: dir.appendingPathComponent("cache")).asset(for: asset)
        #expect(held.info.colorModel == .cmyk && held.info.pixelWidth == 320 && held.info.pixelHeight == 240)
        let most = try Self.mostInk(held, in: dir)
        #expect(most <= 237.5 && most > 225, "the darkest pixel carries \(most) % ink")
        // Without the limit the same picture goes far past it: the limit is what holds it.
        let free = try Self.pictures(folder: dir.appendingPathComponent("free"), limit: nil).asset(for: asset)
        let unlimited = try CMYKPictures(transform: try CMYKTransform(profile: try CMYKConverter.outputProfile(.limited(to: nil))),
                                         quality: 92, inkLimit: nil, folder: dir.appendingPathComponent("unlimited")).asset(for: asset)
        #expect(try Self.mostInk(free, in: dir) > 237.5, "compression alone pushes the limited profile's pixels over")
        #expect(try Self.mostInk(unlimited, in: dir) > 280)
    }

    @Test func aConversionIsReadBackAndADamagedOneIsMadeAgain() throws {
        let dir = try temporaryDirectory("cmyk-picture-cache")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pictures = try Self.pictures(folder: dir.appendingPathComponent("cache"))
        let asset = try Self.darkPicture()
        try pictures.prepare([asset, asset], threads: 2)
        let entry = pictures.entry(for: asset)
        let made = try #require(UserCache.read(entry, magic: CMYKPictures.magic))
        #expect(try pictures.asset(for: asset).data == made)
        // An entry that holds is taken as it is: another CMYK JPEG of the picture's size put
        // there is what the next export gets, so nothing was converted again.
        let flat = TestImages.flatJPEG(width: 320, height: 240, components: [255, 64, 51, 204], adobeTransform: 0)
        UserCache.write(flat, to: entry, magic: CMYKPictures.magic)
        #expect(try pictures.asset(for: asset).data == flat)
        // Damaged, it is converted again and the entry rewritten.
        var bytes = try Data(contentsOf: entry)
        bytes[bytes.count - 10] ^= 0x01
        try bytes.write(to: entry)
        #expect(try pictures.asset(for: asset).data == made)
        #expect(UserCache.read(entry, magic: CMYKPictures.magic) == made)
        // Another quality or limit is another entry.
        let other = CMYKPictures(transform: pictures.transform, quality: 80, inkLimit: 237, folder: pictures.folder)
        #expect(other.entry(for: asset) != entry)
    }

    /// The samples for IngramSpark: every picture a CMYK JPEG in the PDF, none in RGB, and the
    /// tags kept.
    @Test func aCMYKExportCarriesItsPicturesAsCMYKJPEGsAndItsTags() throws {
        let dir = try temporaryDirectory("cmyk-export-pictures")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        let document = try BookDocument.open(Repository.samples.appendingPathComponent("storybook/book.json"),
                                             settings: TestBooks.settings(profile: "ingramspark"))
        _ = try document.export(ExportOptions(pdf: pdf, force: true))
        let rows = try run("pdfimages", ["-list", pdf.path]).stdout.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let pictures = rows.filter { $0[12] != "600" }
        #expect(pictures.count >= 8, "\(rows)")
        for row in pictures { #expect(row[5] == "cmyk" && row[8] == "jpeg", "\(row)") }
        for row in rows { #expect(row[5] != "rgb", "\(row)") }
        let info = try PDFReaders.info(pdf)
        #expect(info["Tagged"] == "yes" && info["PDF version"] == "1.3" && info["PDF subtype"] == "PDF/X-1:2001", "\(info)")
        let json = try PDFReaders.QPDFJSON(pdf)
        #expect(json.catalog["/StructTreeRoot"] != nil)
    }
}
