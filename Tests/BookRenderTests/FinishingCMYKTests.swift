import Testing
import Foundation
import BookModel
import BookConfig
import BookRender
import BookTestSupport
import BookRenderKit

/// CMYKConverter: RGB PDFs from cairo to CMYK PDF/X-1a in this process (Little CMS and qpdf),
/// checked with pdfinfo, pdfimages, pdffonts, qpdf and Ghostscript's renderers.
@Suite struct FinishingCMYKTests {
    static let base = URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc")

    @Test func theLimitedProfileAsksForNoMoreInkThanAllowed() throws {
        let base = try Data(contentsOf: Self.base)
        let unlimited = try ICCProfile.maximumTotalInk(base)
        #expect(unlimited > 290, "Ghostscript's default CMYK profile goes to about 300 %: \(unlimited)")
        let limited = try ICCProfile.inkLimited(base, totalInk: 238)
        let highest = try ICCProfile.maximumTotalInk(limited)
        #expect(highest <= 238 && highest > 236, "\(highest)")
        #expect(try ICCProfile.componentCount(limited) == 4)
        #expect(try ICCProfile.inkLimited(base, totalInk: 238) == limited, "same base and limit, same bytes")
        let named = try ICCProfile.inkLimited(base, totalInk: 238, description: "limited to 240 %")
        #expect(String(decoding: named, as: UTF8.self).contains("limited to 240 %"))
        #expect(throws: FinishingError.self) { try ICCProfile.inkLimited(Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/srgb.icc")), totalInk: 240) }
    }

    /// Four pages, with cairo's RGB pictures (a JPEG, a PNG) and colours; `transparency` gives
    /// page 3 a translucent picture.
    func fixture(_ label: String, transparency: Bool = false) throws -> (dir: URL, pdf: URL) {
        let dir = try temporaryDirectory("cmyk-\(label)")
        let images = try FinishingFixture.images(in: dir)
        let pdf = dir.appendingPathComponent("cairo.pdf")
        try FinishingFixture.cairoPDF(at: pdf, width: 450, height: 666, pages: [
            .init(background: (0.05, 0.02, 0.02)),
            .init(background: (0.3, 0.5, 0.7)),
            .init(background: (0.95, 0.92, 0.85), transparency: transparency),
            .init(background: (0, 0, 0)),
        ], jpeg: images.jpeg, png: images.png, alphaPNG: images.alphaPNG, date: "2023-04-05T06:07:08Z")
        return (dir, pdf)
    }

    static var plan: FinishingPlan {
        let media = PDFRect(llx: 0, lly: 0, urx: 450, ury: 666)
        return FinishingPlan(
            pages: (0..<4).map { _ in .init(media: media, bleedLeft: 9, bleedBottom: 9, bleedRight: 9, bleedTop: 9) },
            info: .init(title: "Pip — CMYK", author: "A. Writer"),
            language: "en-US",
            outline: [.init(title: "Start", pageIndex: 0), .init(title: "Third", pageIndex: 2)],
            pageLabels: [.init(startPageIndex: 0, style: .decimal)],
            pageLayout: .twoPageRight)
    }

    static var options: CMYKConverter.Options { .ingramSpark }

    @Test func convertsToPDFX1aWithinTheInkLimit() throws {
        let (dir, pdf) = try fixture("pdfx")
        let out = dir.appendingPathComponent("book-cmyk.pdf")
        try CMYKConverter.convertToPDFX1a(pdf, to: out, plan: Self.plan, options: Self.options)

        // PDF/X keys: version in the info dictionary, output intent with a 4-channel profile.
        let info = try PDFReaders.info(out)
        #expect(info["PDF version"] == "1.3")
        #expect(info["PDF subtype"] == "PDF/X-1:2001")
        #expect(info["Title"] == "Pip — CMYK")
        #expect(info["CreationDate"] == "Wed Apr  5 06:07:08 2023 UTC", "the input's date, not the clock's")
        let json = try PDFReaders.QPDFJSON(out)
        #expect(PDFReaders.text(json.info["/GTS_PDFXVersion"]) == "PDF/X-1:2001")
        #expect(PDFReaders.text(json.info["/GTS_PDFXConformance"]) == "PDF/X-1a:2001")
        #expect(json.info["/Trapped"] as? String == "/False")
        let intents = try #require(json.catalog["/OutputIntents"] as? [String])
        #expect(intents.count == 1)
        let intent = try #require(json.dict(intents[0]))
        #expect(intent["/Type"] as? String == "/OutputIntent" && intent["/S"] as? String == "/GTS_PDFX")
        #expect(PDFReaders.text(intent["/OutputConditionIdentifier"]) == "CGATS TR 001")
        let profile = try #require(json.dict(intent["/DestOutputProfile"] as! String))
        #expect(profile["/N"] as? Int == 4)

        // The finishing plan survives the conversion: boxes, outline, labels, language.
        let boxes = try PDFReaders.boxes(out)
        #expect(boxes.count == 4)
        for (i, page) in boxes.enumerated() {
            #expect(page["MediaBox"] == PDFRect(llx: 0, lly: 0, urx: 450, ury: 666), "page \(i + 1)")
            #expect(page["TrimBox"] == PDFRect(llx: 9, lly: 9, urx: 441, ury: 657), "page \(i + 1)")
            #expect(page["BleedBox"] == PDFRect(llx: 0, lly: 0, urx: 450, ury: 666), "page \(i + 1)")
        }
        for ref in json.pageObjects {
            #expect(json.dict(ref)?["/ArtBox"] == nil, "PDF/X: a TrimBox and no ArtBox")
        }
        #expect((json.root["outlines"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Start", "Third"])
        #expect(json.catalog["/PageLabels"] != nil && PDFReaders.text(json.catalog["/Lang"]) == "en-US")

        // No RGB left anywhere: no RGB colour space name, no 3-channel ICC space, no rg/RG operator.
        let names = json.allValues().compactMap { $0 as? String }
        #expect(!names.contains { ["/DeviceRGB", "/CalRGB", "/DefaultRGB"].contains($0) }, "an RGB colour space is left")
        for value in json.allValues() {
            if let array = value as? [Any], array.first as? String == "/ICCBased", let ref = array.last as? String {
                #expect(json.dict(ref)?["/N"] as? Int != 3, "an RGB ICC space is left")
            }
        }
        #expect(!names.contains("/SMask") && !names.contains("/Group"), "PDF/X-1a has no transparency")
        for value in json.allValues() {
            if let dict = value as? [String: Any], dict["/Subtype"] as? String == "/Image" {
                #expect(dict["/Interpolate"] == nil, "PDF/X forbids image interpolation")
            }
        }
        let qdf = dir.appendingPathComponent("qdf.pdf")
        try run("qpdf", ["--qdf", "--object-streams=disable", out.path, qdf.path])
        let content = String(decoding: try Data(contentsOf: qdf), as: UTF8.self)
        // An operator ends its line or is followed by the next one on it.
        let lines = content.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) + " " }
        let rgbOperators = lines.filter { $0.contains(" rg ") || $0.contains(" RG ") }
        #expect(rgbOperators.isEmpty, "\(rgbOperators.prefix(3))")
        #expect(lines.contains { $0.contains(" k ") }, "colours are set as CMYK")

        let images = try run("pdfimages", ["-list", out.path]).stdout.split(separator: "\n").dropFirst(2)
        #expect(images.count >= 4)
        for row in images {
            let cols = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cols[5] == "cmyk" || cols[5] == "gray", "\(row)")
            #expect(cols[9] == "no", "interpolation: \(row)")
        }
        for line in try run("pdffonts", [out.path]).stdout.split(separator: "\n").dropFirst(2) {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(cols[cols.count - 5] == "yes", "font not embedded: \(line)")
        }
        let check = try run("qpdf", ["--check", out.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(try PDFReaders.ghostscriptMessages(out) == "", "Ghostscript renders every page without a word")

        // Total ink per pixel, at the resolution the images have.
        let coverage = try PDFReaders.inkCoverage(out, dpi: 150)
        #expect(coverage.count == 4)
        for (i, page) in coverage.enumerated() {
            #expect(page.maximum <= 240, "page \(i + 1): \(page.maximum) % total ink")
        }
        print("total ink per page, max/mean %: " + coverage.map { String(format: "%.1f/%.1f", $0.maximum, $0.mean) }.joined(separator: ", "))
        #expect(coverage[0].maximum > 230, "the near-black page uses what the limit allows: \(coverage[0].maximum)")

        // Without the limit the same page goes far over 240 %: the limit is what keeps it under.
        var unlimited = Self.options
        unlimited.totalInkLimit = nil
        let over = dir.appendingPathComponent("unlimited.pdf")
        try CMYKConverter.convertToPDFX1a(pdf, to: over, plan: Self.plan, options: unlimited)
        let overCoverage = try PDFReaders.inkCoverage(over, dpi: 150)
        #expect(overCoverage[3].maximum > 280, "\(overCoverage[3].maximum)")
    }

    /// The worst case for the limit: every colour of a coarse RGB cube, sampled pixel for pixel.
    @Test func everyColourOfTheRGBCubeStaysUnderTheLimit() throws {
        let dir = try temporaryDirectory("cmyk-cube")
        let pdf = dir.appendingPathComponent("cube.pdf"), out = dir.appendingPathComponent("cube-cmyk.pdf")
        try FinishingFixture.rgbCubePDF(at: pdf)
        try CMYKConverter.convertToPDFX1a(pdf, to: out, plan: FinishingPlan(info: .init(title: "RGB cube")), options: Self.options)
        // 137 dpi puts at least one device pixel on every image pixel (1024 across 7.5 in).
        let coverage = try PDFReaders.inkCoverage(out, dpi: 137)
        #expect(coverage.count == 1)
        #expect(coverage[0].maximum <= 240, "\(coverage[0].maximum) %")
        print("RGB cube: max \(String(format: "%.1f", coverage[0].maximum)) % total ink")
    }

    @Test func conversionGivesTheSameBytesTwice() throws {
        let (dir, pdf) = try fixture("determinism")
        let a = dir.appendingPathComponent("a.pdf"), b = dir.appendingPathComponent("b.pdf")
        try CMYKConverter.convertToPDFX1a(pdf, to: a, plan: Self.plan, options: Self.options)
        Thread.sleep(forTimeInterval: 1.1)
        try CMYKConverter.convertToPDFX1a(pdf, to: b, plan: Self.plan, options: Self.options)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test func boxesOfAFinishedInputAreKeptWhenThePlanHasNone() throws {
        let (dir, pdf) = try fixture("keep-boxes")
        let finished = dir.appendingPathComponent("finished.pdf")
        try PDFFinisher.finish(pdf, plan: Self.plan, to: finished)
        let out = dir.appendingPathComponent("cmyk.pdf")
        try CMYKConverter.convertToPDFX1a(finished, to: out, plan: FinishingPlan(), options: Self.options)
        for page in try PDFReaders.boxes(out) {
            #expect(page["TrimBox"] == PDFRect(llx: 9, lly: 9, urx: 441, ury: 657))
            #expect(page["BleedBox"] == PDFRect(llx: 0, lly: 0, urx: 450, ury: 666))
        }
        #expect(try PDFReaders.info(out)["Title"] == "Pip — CMYK")
    }

    /// Adobe-inverted CMYK JPEGs (ImageMagick's YCCK, and plain CMYK with an APP14 marker) are
    /// decoded to RGB for the PDF; after conversion to CMYK they must still print red.
    @Test func invertedCMYKJPEGsStayRedInPDFX() throws {
        let dir = try temporaryDirectory("cmyk-jpeg")
        try TestImages.convert(["-size", "120x160", "xc:#CC3322", "-colorspace", "CMYK"], output: "out.jpg")
            .write(to: dir.appendingPathComponent("ycck.jpg"))
        // #CC3322 as Adobe stores CMYK: inverted, C 0 M 75 Y 80 K 20 → 255 64 51 204.
        try TestImages.flatJPEG(width: 120, height: 160, components: [255, 64, 51, 204], adobeTransform: 0)
            .write(to: dir.appendingPathComponent("adobe.jpg"))
        let book = Book(kind: .memoir, title: "CMYK", author: "Tester", language: "en-US",
                        created: "2023-04-05T06:07:08Z", theme: "memoir", format: BookFormat(trim: .preset("6x9")),
                        cover: Cover(title: "CMYK"),
                        pages: [Page(PhotoPage(image: .path("ycck.jpg"), caption: "YCCK")),
                                Page(PhotoPage(image: .path("adobe.jpg"), caption: "Adobe CMYK"))])
        let tree = try TestBooks.document(book, folder: dir).layout()
        let rgb = dir.appendingPathComponent("rgb.pdf"), cmyk = dir.appendingPathComponent("cmyk.pdf")
        try PDFWriter.write(tree, to: rgb, opaque: true)
        try CMYKConverter.convertToPDFX1a(rgb, to: cmyk, plan: FinishingPlan(), options: Self.options)
        for caption in ["YCCK", "Adobe CMYK"] {
            let page = try #require(tree.pages.first { $0.text.contains(caption) })
            let box = try #require(page.images.first)
            for pdf in [rgb, cmyk] {
                let pixel = try PDFReaders.rgbPixel(pdf, page: page.number, x: box.frame.x + box.frame.width / 2,
                                                    y: box.frame.y + box.frame.height / 2)
                #expect(pixel.0 > 150 && pixel.1 < 100 && pixel.2 < 100, "\(caption) in \(pdf.lastPathComponent): \(pixel), want red")
            }
        }
    }

    /// A CMYK JPEG cairo wrote with no `/Decode` gets one when Adobe's marker says its values are
    /// inverted, also when the marker comes after more header than is read at first.
    @Test(arguments: [0, 140_000])
    func anAdobeCMYKJPEGGetsItsDecodeWhereverItsMarkerIs(headerBytes: Int) throws {
        let dir = try temporaryDirectory("adobe-decode")
        defer { try? FileManager.default.removeItem(at: dir) }
        // #CC3322 as Adobe stores CMYK: inverted.
        var jpeg = [UInt8](TestImages.flatJPEG(width: 60, height: 80, components: [255, 64, 51, 204], adobeTransform: 0))
        var comments: [UInt8] = []
        for _ in 0..<(headerBytes / 60_000 + (headerBytes > 0 ? 1 : 0)) {
            comments += [0xFF, 0xFE, UInt8(60_002 >> 8), UInt8(60_002 & 0xFF)] + [UInt8](repeating: 0x20, count: 60_000)
        }
        jpeg.insert(contentsOf: comments, at: 2)
        let out = OneImagePDF.make(image: Data(jpeg), width: 60, height: 80,
                                   imageEntries: "/ColorSpace /DeviceCMYK /BitsPerComponent 8 /Filter /DCTDecode")
        let input = dir.appendingPathComponent("in.pdf"), cmyk = dir.appendingPathComponent("cmyk.pdf")
        try out.write(to: input)
        try CMYKConverter.convertToPDFX1a(input, to: cmyk, plan: FinishingPlan(info: .init(title: "Adobe")), options: Self.options)
        let pixel = try PDFReaders.rgbPixel(cmyk, page: 1, x: 30, y: 40)
        #expect(pixel.0 > 150 && pixel.1 < 100 && pixel.2 < 100, "\(headerBytes) bytes before the marker: \(pixel), want red")
    }

    @Test func aFailedConversionLeavesTheTargetUntouched() throws {
        let (dir, pdf) = try fixture("atomic")
        let target = dir.appendingPathComponent("book.pdf")
        let previous = Data("the previous export".utf8)
        try previous.write(to: target)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        var badPlan = Self.plan
        badPlan.pages[0].trimBox.urx = 1000
        #expect(throws: FinishingError.self) { try CMYKConverter.convertToPDFX1a(pdf, to: target, plan: badPlan, options: Self.options) }
        let notAPDF = dir.appendingPathComponent("not.pdf")
        try Data("%PDF-1.5\nnothing here\n".utf8).write(to: notAPDF)
        #expect(throws: FinishingError.self) { try CMYKConverter.convertToPDFX1a(notAPDF, to: target, plan: FinishingPlan(), options: Self.options) }
        var untitled = Self.plan
        untitled.info.title = nil
        let noTitle = dir.appendingPathComponent("untitled.pdf")
        try FinishingFixture.rgbCubePDF(at: noTitle)
        #expect(throws: FinishingError.self) { try CMYKConverter.convertToPDFX1a(noTitle, to: target, plan: FinishingPlan(), options: Self.options) }
        #expect(try Data(contentsOf: target) == previous)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == before.union(["not.pdf", "untitled.pdf", "cube.ppm", "cube.png"]))
    }

    /// PDF/X-1a has no transparency, and the conversion flattens none: a page that has some is
    /// refused by its number and what it uses.
    @Test func aPageWithTransparencyIsRefusedByName() throws {
        let (dir, pdf) = try fixture("transparent", transparency: true)
        let target = dir.appendingPathComponent("book.pdf")
        #expect { try CMYKConverter.convertToPDFX1a(pdf, to: target, plan: Self.plan, options: Self.options) } throws: { error in
            "\(error)".contains("page 3 uses transparency")
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
