import BookResolve
import CGraphics
import Foundation
import Testing
@testable import BookRender
import BookTestSupport

/// Reads one pixel of a decoded image as (a, r, g, b) from cairo's native-endian words.
func pixel(_ image: DecodedImage, _ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
    pixel(surface: image.surface, x, y)
}

func pixel(surface: OpaquePointer, _ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let row = cairo_image_surface_get_data(surface)! + y * stride
    let word = UnsafeRawPointer(row).load(fromByteOffset: x * 4, as: UInt32.self)
    return (Int(word >> 24), Int((word >> 16) & 0xFF), Int((word >> 8) & 0xFF), Int(word & 0xFF))
}

func decode(_ data: Data, minWidth: Int = 0, minHeight: Int = 0) throws -> DecodedImage {
    try ImageDecoder.decode(data, info: try ImageProbe.probe(data), minWidth: minWidth, minHeight: minHeight)
}

func near(_ value: Int, _ expected: Int, _ tolerance: Int = 3) -> Bool { abs(value - expected) <= tolerance }

@Suite("ImageDecoder: JPEG")
struct ImageDecoderJPEGTests {
    enum RedSource: String, CaseIterable, Sendable {
        case baseline, progressive, rgbNoTransform, arithmetic, imageMagickYCCK, adobeCMYK, plainCMYK

        func data() throws -> Data {
            switch self {
            case .baseline: try TestImages.redJPEG()
            case .progressive: try TestImages.redJPEG(["-progressive"])
            case .rgbNoTransform: try TestImages.redJPEG(["-rgb"])
            case .arithmetic: try TestImages.redJPEG(["-arithmetic"])
            case .imageMagickYCCK: try TestImages.convert(["-size", "64x48", "xc:red", "-colorspace", "CMYK"], output: "out.jpg")
            // Red is C=0 M=100% Y=100% K=0; Adobe files store it inverted.
            case .adobeCMYK: TestImages.flatJPEG(width: 64, height: 48, components: [255, 0, 0, 255], adobeTransform: 0)
            case .plainCMYK: TestImages.flatJPEG(width: 64, height: 48, components: [0, 255, 255, 0], adobeTransform: nil)
            }
        }
    }

    @Test(arguments: RedSource.allCases)
    func solidRedDecodesToRed(source: RedSource) throws {
        let image = try decode(try source.data())
        #expect(image.width == 64 && image.height == 48)
        #expect(!image.hasAlpha)
        #expect(cairo_image_surface_get_format(image.surface) == CAIRO_FORMAT_RGB24)
        for (x, y) in [(0, 0), (63, 0), (31, 24), (63, 47)] {
            let p = pixel(image, x, y)
            #expect(near(p.r, 255) && near(p.g, 0) && near(p.b, 0), "\(source) at \(x),\(y): \(p)")
            #expect(p.a == 255, "the unused byte is written, so pixel hashes are stable")
        }
    }

    @Test func greyscale() throws {
        let image = try decode(try TestImages.cjpeg(TestImages.solidPPM(width: 16, height: 16, (128, 128, 128)), ["-grayscale"]))
        let p = pixel(image, 8, 8)
        #expect(near(p.r, 128, 1) && near(p.g, 128, 1) && near(p.b, 128, 1), "\(p)")
    }

    @Test func cmykWithBlackInk() throws {
        // 50 % black on no colour: a mid grey, whichever way the file stores it.
        let adobe = try decode(TestImages.flatJPEG(width: 8, height: 8, components: [255, 255, 255, 127], adobeTransform: 0))
        let plain = try decode(TestImages.flatJPEG(width: 8, height: 8, components: [0, 0, 0, 128], adobeTransform: nil))
        for p in [pixel(adobe, 0, 0), pixel(plain, 0, 0)] {
            #expect(near(p.r, 127, 1) && near(p.g, 127, 1) && near(p.b, 127, 1), "\(p)")
        }
    }

    @Test func pixelsKeepTheirPlaces() throws {
        // Left half red, right half blue, in 16-pixel blocks so compression keeps the edge.
        let ppm = TestImages.ppm(width: 64, height: 32) { x, _ in x < 32 ? (255, 0, 0) : (0, 0, 255) }
        let image = try decode(try TestImages.cjpeg(ppm))
        let left = pixel(image, 8, 16), right = pixel(image, 56, 16)
        #expect(near(left.r, 255, 4) && near(left.b, 0, 4), "\(left)")
        #expect(near(right.r, 0, 4) && near(right.b, 255, 4), "\(right)")
    }

    @Test func exifOrientationIsNotApplied() throws {
        let data = TestImages.withExifOrientation(try TestImages.redJPEG(width: 64, height: 48), 6)
        let image = try decode(data)
        #expect(image.width == 64 && image.height == 48)
    }

    /// The orientation transform, applied to the decoded pixels, gives what ImageMagick's
    /// -auto-orient makes of the same file.
    @Test(arguments: 2...8)
    func orientationTransformMatchesImageMagick(orientation: Int) throws {
        // Four 16×16 quadrants in distinct colours (JPEG keeps flat 16-pixel blocks nearly exact).
        let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
        let ppm = TestImages.ppm(width: 32, height: 16) { x, y in colours[(y / 8) * 2 + x / 16] }
        let jpeg = TestImages.withExifOrientation(try TestImages.cjpeg(ppm, quality: 100), orientation)
        let upright = try TestImages.inTemporaryDirectory { directory -> Data in
            try jpeg.write(to: directory.appendingPathComponent("in.jpg"))
            try TestImages.run("convert", ["in.jpg", "-auto-orient", "PNG24:out.png"], in: directory)
            return try Data(contentsOf: directory.appendingPathComponent("out.png"))
        }
        let info = try ImageProbe.probe(jpeg)
        let stored = try ImageDecoder.decode(jpeg, info: info)
        let expected = try decode(upright)
        #expect(expected.width == info.orientedWidth && expected.height == info.orientedHeight)
        let transform = ExifOrientation.transform(orientation, width: 32, height: 16)
        // Sample stored pixel centres away from the quadrant edges.
        for (x, y) in [(4, 3), (27, 3), (4, 12), (27, 12), (12, 6), (20, 10)] {
            let target = transform.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
            let want = pixel(expected, Int(target.x), Int(target.y))
            let got = pixel(stored, x, y)
            #expect(near(got.r, want.r, 24) && near(got.g, want.g, 24) && near(got.b, want.b, 24),
                    "orientation \(orientation): stored \(x),\(y) = \(got), upright \(target) = \(want)")
        }
    }
}

@Suite("ImageDecoder: DCT scaling")
struct ImageDecoderScalingTests {
    static let scan = Result { try TestImages.redJPEG(width: 1600, height: 1200) }

    @Test(arguments: [
        // minWidth, minHeight, expected width, height
        (0, 0, 1600, 1200),
        (350, 0, 400, 300),
        (0, 301, 600, 450),
        (1, 1, 200, 150),
        (200, 150, 200, 150),
        (201, 0, 400, 300),
        (1000, 700, 1000, 750),
        (1599, 0, 1600, 1200),
        (5000, 5000, 1600, 1200),
    ])
    func smallestScaleAtLeastTheMinimum(minWidth: Int, minHeight: Int, width: Int, height: Int) throws {
        let image = try decode(try Self.scan.get(), minWidth: minWidth, minHeight: minHeight)
        #expect(image.width == width && image.height == height)
        let p = pixel(image, image.width / 2, image.height / 2)
        #expect(near(p.r, 255) && near(p.g, 0) && near(p.b, 0))
    }

    @Test func oddSizesRoundUpLikeLibjpeg() throws {
        let image = try decode(try TestImages.redJPEG(width: 1001, height: 333), minWidth: 120)
        #expect(image.width == 126 && image.height == 42) // ⌈1001/8⌉, ⌈333/8⌉
    }

    @Test func cmykScalesToo() throws {
        let data = TestImages.flatJPEG(width: 800, height: 600, components: [255, 0, 0, 255], adobeTransform: 0)
        let image = try decode(data, minWidth: 190)
        #expect(image.width == 200 && image.height == 150)
        let p = pixel(image, 100, 75)
        #expect(near(p.r, 255) && near(p.g, 0) && near(p.b, 0))
    }

    /// A scaled decode is libjpeg's DCT scaling, not a full decode made smaller afterwards: the
    /// pixels are the ones `djpeg -scale M/8` writes for the scale chosen.
    @Test(arguments: [(100, 1), (200, 2), (250, 3), (301, 4), (700, 7), (701, 8)])
    func scaledDecodeIsLibjpegsDCTScaling(minWidth: Int, eighths: Int) throws {
        let data = try TestImages.gradientJPEG(width: 800, height: 600)
        let image = try decode(data, minWidth: minWidth)
        #expect(image.width == 100 * eighths && image.height == 75 * eighths)
        let reference = try TestImages.inTemporaryDirectory { directory -> Data in
            try data.write(to: directory.appendingPathComponent("in.jpg"))
            try TestImages.run("djpeg", ["-scale", "\(eighths)/8", "-outfile", "out.ppm", "in.jpg"], in: directory)
            return try Data(contentsOf: directory.appendingPathComponent("out.ppm"))
        }
        let header = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        try #require(reference.starts(with: header), "djpeg wrote \(String(decoding: reference.prefix(20), as: UTF8.self))")
        var mismatches = 0
        reference.dropFirst(header.count).withUnsafeBytes { rgb in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = pixel(image, x, y), i = (y * image.width + x) * 3
                    if p.r != Int(rgb[i]) || p.g != Int(rgb[i + 1]) || p.b != Int(rgb[i + 2]) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(image.width * image.height) pixels differ from djpeg's at \(eighths)/8")
    }
}

@Suite("ImageDecoder: PNG")
struct ImageDecoderPNGTests {
    @Test func halfTransparentRedIsPremultiplied() throws {
        let image = try decode(try TestImages.convert(["-size", "8x8", "xc:rgba(255,0,0,0.5)"], output: "PNG32:out.png"))
        #expect(image.hasAlpha)
        #expect(cairo_image_surface_get_format(image.surface) == CAIRO_FORMAT_ARGB32)
        let p = pixel(image, 3, 3)
        #expect(p.a == 128 || p.a == 127, "\(p)")
        #expect(p.r == p.a && p.g == 0 && p.b == 0, "premultiplied red equals its alpha: \(p)")
    }

    @Test func premultipliedColoursRoundCorrectly() throws {
        // 60 % alpha: 153. Colour (200, 100, 50) premultiplies to (120, 60, 30).
        let image = try decode(try TestImages.convert(["-size", "4x4", "xc:rgba(200,100,50,0.6)"], output: "PNG32:out.png"))
        let p = pixel(image, 0, 0)
        #expect(p.a == 153)
        #expect(p.r == 120 && p.g == 60 && p.b == 30, "\(p)")
    }

    @Test func sixteenBitScalesToEightBit() throws {
        let image = try decode(try TestImages.convert(["-size", "8x8", "xc:rgb(50%,25%,75%)", "-depth", "16"], output: "PNG48:out.png"))
        #expect(!image.hasAlpha)
        let p = pixel(image, 0, 0)
        #expect(p.a == 255 && near(p.r, 128, 1) && near(p.g, 64, 1) && near(p.b, 191, 1), "\(p)")
    }

    @Test func sixteenBitWithAlpha() throws {
        let image = try decode(try TestImages.convert(["-size", "8x8", "xc:rgba(0%,100%,0%,0.5)", "-depth", "16"], output: "PNG64:out.png"))
        let p = pixel(image, 0, 0)
        #expect(near(p.a, 128, 1) && p.g == p.a && p.r == 0 && p.b == 0, "\(p)")
    }

    @Test func paletteWithTransparency() throws {
        let data = try TestImages.convert(["-size", "4x8", "xc:red", "-size", "4x8", "xc:none", "+append"], output: "PNG8:out.png")
        let image = try decode(data)
        #expect(image.hasAlpha)
        let opaque = pixel(image, 1, 1), clear = pixel(image, 6, 1)
        #expect(opaque == (255, 255, 0, 0), "\(opaque)")
        #expect(clear == (0, 0, 0, 0), "\(clear)")
    }

    @Test func grey() throws {
        let image = try decode(try TestImages.convert(
            ["-size", "8x8", "xc:gray(128)", "-define", "png:color-type=0", "-depth", "8"], output: "PNG:out.png"))
        #expect(!image.hasAlpha)
        #expect(cairo_image_surface_get_format(image.surface) == CAIRO_FORMAT_RGB24)
        #expect(pixel(image, 4, 4) == (255, 128, 128, 128))
    }

    @Test func greyWithAlpha() throws {
        let image = try decode(try TestImages.convert(
            ["-size", "8x8", "xc:graya(100%,0.5)", "-define", "png:color-type=4", "-depth", "8"], output: "PNG:out.png"))
        let p = pixel(image, 0, 0)
        #expect(near(p.a, 128, 1) && p.r == p.a && p.g == p.a && p.b == p.a, "\(p)")
    }

    @Test func oneBitGrey() throws {
        let image = try decode(try TestImages.convert(
            ["-size", "8x8", "xc:black", "-size", "8x8", "xc:white", "+append", "-define", "png:color-type=0",
             "-define", "png:bit-depth=1"], output: "PNG:out.png"))
        #expect(pixel(image, 2, 2) == (255, 0, 0, 0))
        #expect(pixel(image, 12, 2) == (255, 255, 255, 255))
    }

    @Test func interlaced() throws {
        let interlacedPNG = try TestImages.convert(["-size", "33x17", "gradient:red-blue", "-interlace", "PNG"], output: "PNG24:out.png")
        let plain = try TestImages.convert(["-size", "33x17", "gradient:red-blue"], output: "PNG24:out.png")
        #expect(try ImageProbe.probe(interlacedPNG).progressive)
        let a = try decode(interlacedPNG), b = try decode(plain)
        for (x, y) in [(0, 0), (32, 16), (10, 9), (17, 3)] {
            #expect(pixel(a, x, y) == pixel(b, x, y))
        }
    }
}

@Suite("ImageDecoder: errors")
struct ImageDecoderErrorTests {
    private func failure(_ data: Data, info: ImageInfo) -> ImageError? {
        do {
            _ = try ImageDecoder.decode(data, info: info)
            return nil
        } catch {
            return error
        }
    }

    @Test func truncatedJPEG() throws {
        let full = try TestImages.gradientJPEG(width: 200, height: 150)
        let error = failure(full.prefix(full.count * 2 / 3), info: try ImageProbe.probe(full))
        #expect(error?.kind == .truncated)
        #expect(error?.message == "truncated JPEG: Premature end of JPEG file")
    }

    @Test func truncatedProgressiveJPEG() throws {
        let full = try TestImages.gradientJPEG(width: 200, height: 150, ["-progressive"])
        #expect(failure(full.prefix(full.count * 2 / 3), info: try ImageProbe.probe(full))?.kind == .truncated)
    }

    @Test func corruptJPEGIsNotRenderedGrey() throws {
        let full = try TestImages.gradientJPEG(width: 200, height: 150)
        let info = try ImageProbe.probe(full)
        var bytes = [UInt8](full)
        // A restart marker where none belongs, in the middle of the entropy-coded data.
        bytes.insert(contentsOf: [0xFF, 0xD3], at: bytes.count / 2)
        let marker = failure(Data(bytes), info: info)
        #expect(marker?.kind == .invalid)
        #expect(marker?.message.contains("Corrupt JPEG data") == true, "\(String(describing: marker))")
        // Zeroed bytes decode as valid codes; the damage only shows as stray bytes before EOI.
        bytes = [UInt8](full)
        bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + 64), with: [UInt8](repeating: 0, count: 64))
        let zeroed = failure(Data(bytes), info: info)
        #expect(zeroed?.message.contains("Corrupt JPEG data") == true, "\(String(describing: zeroed))")
    }

    @Test func harmlessStrayBytesAreTolerated() throws {
        var bytes = [UInt8](try TestImages.redJPEG())
        bytes.insert(contentsOf: [0x00, 0x00], at: bytes.count - 2)
        let image = try decode(Data(bytes))
        #expect(near(pixel(image, 0, 0).r, 255))
        // Stray bytes between header segments do not touch the pixels either.
        let quantisation = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDB })
        bytes.insert(contentsOf: [0x00, 0x00, 0x00], at: quantisation)
        #expect(near(pixel(try decode(Data(bytes)), 0, 0).r, 255))
    }

    @Test func garbageWithAJPEGSignature() {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF]
        bytes += (0..<500).map { UInt8(($0 * 37 + 11) & 0xFF) }
        let info = ImageInfo(format: .jpeg, pixelWidth: 10, pixelHeight: 10, components: 3, colorModel: .rgb)
        let error = failure(Data(bytes), info: info)
        #expect(error != nil)
        #expect(error?.message.hasPrefix("JPEG: ") == true || error?.kind == .truncated, "\(String(describing: error))")
    }

    @Test func truncatedPNG() throws {
        let full = try TestImages.convert(["-size", "64x64", "plasma:red-blue"], output: "PNG24:out.png")
        let error = failure(full.prefix(full.count / 2), info: try ImageProbe.probe(full))
        #expect(error?.kind == .truncated)
        #expect(error?.message == "truncated PNG: the data ends before the image does")
    }

    @Test func pngWithDamagedImageData() throws {
        let full = try TestImages.convert(["-size", "64x64", "plasma:red-blue"], output: "PNG24:out.png")
        var bytes = [UInt8](full)
        bytes[bytes.count / 2] ^= 0xFF // inside IDAT: its CRC no longer matches
        let error = failure(Data(bytes), info: try ImageProbe.probe(full))
        #expect(error?.kind == .invalid)
        #expect(error?.message.hasPrefix("PNG: ") == true, "\(String(describing: error))")
    }

    @Test func infoThatDoesNotMatchTheData() throws {
        let data = try TestImages.redJPEG(width: 64, height: 48)
        var info = try ImageProbe.probe(data)
        info.pixelWidth = 100
        #expect(failure(data, info: info)?.message.contains("does not match") == true)
    }
}
