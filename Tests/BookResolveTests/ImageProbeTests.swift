import Foundation
import Testing
@testable import BookResolve
import BookTestSupport

@Suite("ImageProbe: JPEG")
struct ImageProbeJPEGTests {
    @Test func baselineRGB() throws {
        let info = try ImageProbe.probe(try TestImages.redJPEG(width: 64, height: 48))
        #expect(info == ImageInfo(format: .jpeg, pixelWidth: 64, pixelHeight: 48, components: 3, colorModel: .rgb,
                                  hasAlpha: false, bitDepth: 8, progressive: false, adobeInverted: false, orientation: 1))
        #expect(info.orientedWidth == 64 && info.orientedHeight == 48)
    }

    @Test func greyscale() throws {
        let info = try ImageProbe.probe(try TestImages.redJPEG(width: 40, height: 30, ["-grayscale"]))
        #expect(info.colorModel == .gray)
        #expect(info.components == 1)
        #expect(info.pixelWidth == 40 && info.pixelHeight == 30)
    }

    @Test func progressive() throws {
        let info = try ImageProbe.probe(try TestImages.gradientJPEG(width: 120, height: 90, ["-progressive"]))
        #expect(info.progressive)
        #expect(info.colorModel == .rgb)
    }

    @Test func rgbWithoutYCbCrTransform() throws {
        // cjpeg -rgb stores R, G, B directly and marks it with an Adobe marker (transform 0);
        // that marker must not make a three-channel image count as inverted.
        let info = try ImageProbe.probe(try TestImages.redJPEG(["-rgb"]))
        #expect(info.colorModel == .rgb)
        #expect(info.components == 3)
        #expect(!info.adobeInverted)
    }

    @Test func arithmeticCoded() throws {
        let info = try ImageProbe.probe(try TestImages.redJPEG(["-arithmetic"]))
        #expect(info.colorModel == .rgb)
    }

    @Test func imageMagickCMYKIsAdobeInvertedYCCK() throws {
        let data = try TestImages.convert(["-size", "64x48", "xc:red", "-colorspace", "CMYK"], output: "out.jpg")
        let info = try ImageProbe.probe(data)
        #expect(info.colorModel == .ycck)
        #expect(info.components == 4)
        #expect(info.adobeInverted)
    }

    @Test func plainCMYKWithAdobeMarker() throws {
        let data = TestImages.flatJPEG(width: 16, height: 16, components: [255, 0, 0, 255], adobeTransform: 0)
        let info = try ImageProbe.probe(data)
        #expect(info.colorModel == .cmyk)
        #expect(info.components == 4)
        #expect(info.adobeInverted)
    }

    @Test func plainCMYKWithoutAdobeMarkerIsNotInverted() throws {
        let data = TestImages.flatJPEG(width: 16, height: 16, components: [0, 255, 255, 0], adobeTransform: nil)
        let info = try ImageProbe.probe(data)
        #expect(info.colorModel == .cmyk)
        #expect(!info.adobeInverted)
    }

    @Test(arguments: [(6, false), (8, true), (6, true), (8, false)])
    func exifOrientationSwapsSides(orientation: Int, bigEndian: Bool) throws {
        let data = TestImages.withExifOrientation(try TestImages.redJPEG(width: 64, height: 48), orientation, bigEndian: bigEndian)
        let info = try ImageProbe.probe(data)
        #expect(info.orientation == orientation)
        #expect(info.pixelWidth == 64 && info.pixelHeight == 48)
        #expect(info.orientedWidth == 48 && info.orientedHeight == 64)
    }

    @Test(arguments: 1...8)
    func everyOrientation(orientation: Int) throws {
        let data = TestImages.withExifOrientation(try TestImages.redJPEG(width: 32, height: 16), orientation)
        let info = try ImageProbe.probe(data)
        #expect(info.orientation == orientation)
        #expect(info.orientedWidth == (orientation >= 5 ? 16 : 32))
    }

    @Test func bytesAfterEndOfImageAreAccepted() throws {
        // Motion photos append a video after EOI; some cameras pad with zeros.
        var data = try TestImages.gradientJPEG(width: 64, height: 64)
        data.append(Data(repeating: 0, count: 100) + Data("....ftypmp42".utf8) + Data((0..<4096).map { UInt8($0 & 0xFF) }))
        #expect(try ImageProbe.probe(data).pixelWidth == 64)
        var progressive = try TestImages.gradientJPEG(width: 64, height: 64, ["-progressive"])
        progressive.append(Data([0, 0, 0]))
        #expect(try ImageProbe.probe(progressive).progressive)
    }
}

@Suite("ImageProbe: PNG")
struct ImageProbePNGTests {
    @Test func rgba() throws {
        let info = try ImageProbe.probe(try TestImages.convert(["-size", "8x6", "xc:rgba(255,0,0,0.5)"], output: "PNG32:out.png"))
        #expect(info == ImageInfo(format: .png, pixelWidth: 8, pixelHeight: 6, components: 4, colorModel: .rgb,
                                  hasAlpha: true, bitDepth: 8, progressive: false, adobeInverted: false, orientation: 1))
    }

    @Test func sixteenBit() throws {
        let info = try ImageProbe.probe(try TestImages.convert(["-size", "8x8", "xc:rgb(50%,25%,75%)", "-depth", "16"], output: "PNG48:out.png"))
        #expect(info.bitDepth == 16)
        #expect(info.components == 3)
        #expect(!info.hasAlpha)
    }

    @Test func paletteWithTransparency() throws {
        let data = try TestImages.convert(["-size", "4x8", "xc:red", "-size", "4x8", "xc:none", "+append"], output: "PNG8:out.png")
        #expect(TestImages.chunks(data).map(\.type).contains("tRNS"))
        let info = try ImageProbe.probe(data)
        #expect(info.colorModel == .rgb)
        #expect(info.hasAlpha)
        #expect(info.components == 4)
        #expect(info.bitDepth <= 8)
    }

    @Test func grey() throws {
        let info = try ImageProbe.probe(try TestImages.convert(
            ["-size", "8x8", "xc:gray(128)", "-define", "png:color-type=0", "-depth", "8"], output: "PNG:out.png"))
        #expect(info.colorModel == .gray)
        #expect(info.components == 1)
        #expect(!info.hasAlpha)
    }

    @Test func oneBitGrey() throws {
        let info = try ImageProbe.probe(try TestImages.convert(
            ["-size", "8x8", "xc:black", "-size", "8x8", "xc:white", "+append", "-define", "png:color-type=0",
             "-define", "png:bit-depth=1"], output: "PNG:out.png"))
        #expect(info.bitDepth == 1)
        #expect(info.pixelWidth == 16)
    }

    @Test func interlacedCountsAsProgressive() throws {
        let info = try ImageProbe.probe(try TestImages.convert(["-size", "32x32", "xc:blue", "-interlace", "PNG"], output: "PNG24:out.png"))
        #expect(info.progressive)
    }

    @Test func eXIfChunkOrientation() throws {
        let png = try TestImages.convert(["-size", "30x20", "xc:blue"], output: "PNG24:out.png")
        let data = TestImages.insertingChunk("eXIf", TestImages.exifTIFF(orientation: 6, bigEndian: true), into: png)
        let info = try ImageProbe.probe(data)
        #expect(info.orientation == 6)
        #expect(info.orientedWidth == 20 && info.orientedHeight == 30)
    }
}

@Suite("ImageProbe: errors")
struct ImageProbeErrorTests {
    private func error(_ data: Data) -> ImageError? {
        do {
            _ = try ImageProbe.probe(data)
            return nil
        } catch {
            return error
        }
    }

    @Test func garbage() {
        let failure = error(Data("this is not an image at all, just some text".utf8))
        #expect(failure?.kind == .notAnImage)
        #expect(failure?.message.hasPrefix("not a JPEG or PNG") == true)
        #expect(failure?.message.contains("74 68 69 73") == true)
    }

    @Test func empty() {
        #expect(error(Data())?.message == "not a JPEG or PNG (the data is empty)")
    }

    @Test func namesFormatsHandedInByMistake() throws {
        let gif = try TestImages.convert(["-size", "4x4", "xc:red"], output: "out.gif")
        #expect(error(gif)?.message == "not a JPEG or PNG (looks like a GIF image)")
        let html = Data("<!DOCTYPE html><html><body>404 Not Found</body></html>".utf8)
        #expect(error(html)?.message.contains("HTML page") == true)
    }

    @Test func truncatedJPEG() throws {
        let full = try TestImages.gradientJPEG(width: 200, height: 150)
        let failure = error(full.prefix(full.count / 2))
        #expect(failure?.kind == .truncated)
        #expect(failure?.message == "truncated JPEG (no end-of-image marker)")
    }

    @Test func truncatedProgressiveJPEG() throws {
        let full = try TestImages.gradientJPEG(width: 200, height: 150, ["-progressive"])
        #expect(error(full.prefix(full.count - 40))?.kind == .truncated)
    }

    @Test func jpegCutInsideItsHeaders() throws {
        let failure = error(try TestImages.redJPEG().prefix(100))
        #expect(failure?.kind == .truncated)
        #expect(failure?.message.contains("Premature end of JPEG file") == true)
    }

    @Test func jpegWithUnsupportedHeaderReportsLibjpegsMessage() throws {
        var bytes = [UInt8](try TestImages.redJPEG())
        // Claim 12-bit samples in the frame header, which this libjpeg build cannot decode.
        let frame = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[frame + 4] = 12
        let failure = error(Data(bytes))
        #expect(failure?.kind == .invalid)
        #expect(failure?.message == "JPEG: Unsupported JPEG data precision 12")
    }

    @Test func strayBytesBetweenHeaderSegmentsAreTolerated() throws {
        var bytes = [UInt8](try TestImages.redJPEG())
        let quantisation = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB })
        bytes.insert(contentsOf: [0x00, 0x00, 0x00], at: quantisation)
        #expect(try ImageProbe.probe(Data(bytes)).pixelWidth == 64)
        // With bytes after EOI too, so the scans must be found past the stray bytes.
        let exif = TestImages.withExifOrientation(Data(bytes), 8) + Data([0, 0, 0, 0])
        #expect(try ImageProbe.probe(exif).orientation == 8)
    }

    @Test func truncatedPNG() throws {
        let full = try TestImages.convert(["-size", "64x64", "plasma:red-blue"], output: "PNG24:out.png")
        let cut = error(full.prefix(full.count / 2))
        #expect(cut?.kind == .truncated)
        #expect(cut?.message.hasPrefix("truncated PNG") == true)
        // Only the 12-byte IEND missing: every other chunk is whole.
        let noEnd = error(full.prefix(full.count - 12))
        #expect(noEnd?.message == "truncated PNG (no IEND chunk)")
    }

    @Test func pngWithoutImageData() {
        // Signature, a valid IHDR, IEND: a header with nothing behind it.
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0]
        bytes += [0, 0, 0, 13] + Array("IHDR".utf8) + ihdr + [0, 0, 0, 0]
        bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0, 0, 0, 0]
        #expect(error(Data(bytes))?.message == "PNG has no image data (IDAT chunk)")
    }

    /// Only the headers (and that the data ends) are looked at: image data the decoder would
    /// reject passes the probe unread.
    @Test func probingDoesNotDecode() throws {
        let whole = try TestImages.gradientJPEG(width: 200, height: 150)
        var bytes = [UInt8](whole)
        // Every byte of the entropy-coded data, SOS header to EOI, made a restart marker that
        // belongs nowhere.
        let scan = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let data = scan + 2 + (Int(bytes[scan + 2]) << 8 | Int(bytes[scan + 3]))
        for i in stride(from: data, to: bytes.count - 3, by: 2) { bytes[i] = 0xFF; bytes[i + 1] = 0xD3 }
        #expect(try ImageProbe.probe(Data(bytes)) == ImageProbe.probe(whole))
    }
}

@Suite("ExifOrientation")
struct ExifOrientationTests {
    private func orientation(_ tiff: [UInt8]) -> Int? {
        tiff.withUnsafeBytes { ExifOrientation.orientation(tiff: $0) }
    }

    @Test(arguments: 1...8)
    func bothByteOrders(value: Int) {
        #expect(orientation(TestImages.exifTIFF(orientation: value, bigEndian: false)) == value)
        #expect(orientation(TestImages.exifTIFF(orientation: value, bigEndian: true)) == value)
    }

    @Test func longTypeIsAccepted() {
        #expect(orientation(TestImages.exifTIFF(orientation: 3, bigEndian: true, type: 4)) == 3)
    }

    @Test func outOfRangeValuesAreIgnored() {
        #expect(orientation(TestImages.exifTIFF(orientation: 0, bigEndian: false)) == nil)
        #expect(orientation(TestImages.exifTIFF(orientation: 9, bigEndian: true)) == nil)
    }

    @Test func malformedBlocksAreIgnored() {
        let good = TestImages.exifTIFF(orientation: 6, bigEndian: false)
        #expect(orientation([]) == nil)
        #expect(orientation(Array(good.prefix(7))) == nil)
        var badOrder = good
        badOrder[0] = 0x58
        #expect(orientation(badOrder) == nil)
        var badMagic = good
        badMagic[2] = 43
        #expect(orientation(badMagic) == nil)
        var farOffset = good
        farOffset[4] = 0xF0 // IFD0 beyond the block
        #expect(orientation(farOffset) == nil)
        // Cut inside the orientation entry.
        #expect(orientation(Array(good.prefix(good.count - 8))) == nil)
        var manyEntries = good
        manyEntries[8] = 0xFF // entry count far past the end
        #expect(orientation(manyEntries) == 6) // the real entry still comes first
    }

    @Test func segmentMustSayExif() {
        let tiff = TestImages.exifTIFF(orientation: 6, bigEndian: false)
        let segment = Array("Exif\0\0".utf8) + tiff
        #expect(segment.withUnsafeBytes { ExifOrientation.orientation(exifSegment: $0) } == 6)
        let other = Array("Exig\0\0".utf8) + tiff
        #expect(other.withUnsafeBytes { ExifOrientation.orientation(exifSegment: $0) } == nil)
    }

    @Test func swapsAxes() {
        #expect((1...8).filter(ExifOrientation.swapsAxes) == [5, 6, 7, 8])
    }

    /// Where the stored image's corners land, as the EXIF specification describes each value
    /// ("the 0th row is the visual …, the 0th column is the visual …").
    @Test(arguments: [
        // orientation, stored top-left corner, stored top-right corner (on a 4×2 image)
        (1, (0.0, 0.0), (4.0, 0.0)),
        (2, (4.0, 0.0), (0.0, 0.0)),
        (3, (4.0, 2.0), (0.0, 2.0)),
        (4, (0.0, 2.0), (4.0, 2.0)),
        (5, (0.0, 0.0), (0.0, 4.0)),
        (6, (2.0, 0.0), (2.0, 4.0)),
        (7, (2.0, 4.0), (2.0, 0.0)),
        (8, (0.0, 4.0), (0.0, 0.0)),
    ])
    func transformPlacesCorners(orientation: Int, topLeft: (Double, Double), topRight: (Double, Double)) {
        let t = ExifOrientation.transform(orientation, width: 4, height: 2)
        let a = t.apply(x: 0, y: 0), b = t.apply(x: 4, y: 0)
        #expect(a.x == topLeft.0 && a.y == topLeft.1)
        #expect(b.x == topRight.0 && b.y == topRight.1)
    }
}
