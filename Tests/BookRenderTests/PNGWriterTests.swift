import BookResolve
import CGraphics
import Foundation
import Testing
import BookBase
@testable import BookRender
import BookTestSupport

@Suite("PNGWriter")
struct PNGWriterTests {
    /// A surface with a gradient, a few solid shapes and (for ARGB32) varying alpha, drawn by
    /// cairo so it looks like what pages are.
    private func makeSurface(_ format: cairo_format_t, width: Int32 = 97, height: Int32 = 61) -> OpaquePointer {
        let surface = cairo_image_surface_create(format, width, height)!
        let cr = cairo_create(surface)!
        let gradient = cairo_pattern_create_linear(0, 0, Double(width), Double(height))!
        cairo_pattern_add_color_stop_rgba(gradient, 0, 1, 0.2, 0, format == CAIRO_FORMAT_ARGB32 ? 0.1 : 1)
        cairo_pattern_add_color_stop_rgba(gradient, 1, 0, 0.3, 1, 1)
        cairo_set_source(cr, gradient)
        cairo_paint(cr)
        cairo_set_source_rgba(cr, 0.1, 0.8, 0.3, 0.7)
        cairo_arc(cr, 40, 30, 18, 0, 2 * Double.pi)
        cairo_fill(cr)
        if format == CAIRO_FORMAT_ARGB32 {
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_rectangle(cr, 0, 0, 10, 10)
            cairo_fill(cr)
        }
        cairo_pattern_destroy(gradient)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return surface
    }

    private func withTemporaryFile<T>(_ body: (String) throws -> T) throws -> T {
        try TestImages.inTemporaryDirectory { directory in try body(directory.appendingPathComponent("page.png").path) }
    }

    private func pixels(_ surface: OpaquePointer) -> [UInt32] {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let hasAlpha = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
        return (0..<height).flatMap { y in
            (0..<width).map { x in
                let p = pixel(surface: surface, x, y)
                // RGB24 leaves the top byte undefined; compare colour only.
                return UInt32(hasAlpha ? p.a : 255) << 24 | UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
            }
        }
    }

    @Test func rgbSurfaceWithResolution() throws {
        let surface = makeSurface(CAIRO_FORMAT_RGB24)
        defer { cairo_surface_destroy(surface) }
        let data = try withTemporaryFile { path in
            try PNGWriter.write(surface: surface, to: path, dpi: 150)
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let chunks = TestImages.chunks(data)
        #expect(chunks.first?.type == "IHDR")
        #expect(chunks.last?.type == "IEND")
        let ihdr = chunks[0].data
        #expect(Array(ihdr[0..<8]) == [0, 0, 0, 97, 0, 0, 0, 61])
        #expect(ihdr[8] == 8 && ihdr[9] == 2, "8-bit RGB")
        #expect(!chunks.contains { $0.type == "tIME" }, "no timestamp, so output is reproducible")
        let phys = try #require(chunks.first { $0.type == "pHYs" }?.data)
        // 150 dpi = 5905.5 px/m, rounded; unit 1 = metre.
        #expect(phys == [0, 0, 0x17, 0x12, 0, 0, 0x17, 0x12, 1])
        #expect(chunks.firstIndex { $0.type == "pHYs" }! < chunks.firstIndex { $0.type == "IDAT" }!)

        let back = try decode(data)
        #expect(!back.hasAlpha)
        #expect(pixels(back.surface) == pixels(surface))
    }

    @Test(arguments: [(72.0, 2835), (96.0, 3780), (300.0, 11811), (600.0, 23622)])
    func resolutionInPixelsPerMetre(dpi: Double, perMetre: Int) throws {
        let surface = makeSurface(CAIRO_FORMAT_RGB24, width: 4, height: 4)
        defer { cairo_surface_destroy(surface) }
        let phys = try withTemporaryFile { path in
            try PNGWriter.write(surface: surface, to: path, dpi: dpi)
            return TestImages.chunks(try Data(contentsOf: URL(fileURLWithPath: path))).first { $0.type == "pHYs" }?.data
        }
        let value = phys.map { Int($0[0]) << 24 | Int($0[1]) << 16 | Int($0[2]) << 8 | Int($0[3]) }
        #expect(value == perMetre)
    }

    @Test func argbSurfaceKeepsAlpha() throws {
        let surface = makeSurface(CAIRO_FORMAT_ARGB32)
        defer { cairo_surface_destroy(surface) }
        let data = try withTemporaryFile { path in
            try PNGWriter.write(surface: surface, to: path, dpi: 150)
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let ihdr = TestImages.chunks(data)[0].data
        #expect(ihdr[8] == 8 && ihdr[9] == 6, "8-bit RGBA")
        let back = try decode(data)
        #expect(back.hasAlpha)
        #expect(pixel(back, 2, 2) == (0, 0, 0, 0))
        // Un-premultiplying to 8 bits and premultiplying again returns the same values.
        #expect(pixels(back.surface) == pixels(surface))
    }

    @Test func imageMagickReadsWhatWeWrite() throws {
        let surface = makeSurface(CAIRO_FORMAT_RGB24)
        defer { cairo_surface_destroy(surface) }
        let described = try TestImages.inTemporaryDirectory { directory -> String in
            let path = directory.appendingPathComponent("page.png").path
            try PNGWriter.write(surface: surface, to: path, dpi: 150)
            try TestImages.run("convert", [path, "-format", "%w %h %[units] %x %y", "info:described.txt"], in: directory)
            return try String(contentsOf: directory.appendingPathComponent("described.txt"), encoding: .utf8)
        }
        let fields = described.split(separator: " ")
        #expect(fields.prefix(3) == ["97", "61", "PixelsPerCentimeter"], "\(described)")
        // 5906 px/m.
        #expect(fields.dropFirst(3).compactMap { Double($0) }.allSatisfy { abs($0 - 59.06) < 0.001 } && fields.count == 5,
                "\(described)")
    }

    @Test func twoWritesAreByteIdentical() throws {
        let first = makeSurface(CAIRO_FORMAT_RGB24), second = makeSurface(CAIRO_FORMAT_RGB24)
        defer { cairo_surface_destroy(first); cairo_surface_destroy(second) }
        let (a, b, c) = try TestImages.inTemporaryDirectory { directory in
            let paths = ["a.png", "b.png", "c.png"].map { directory.appendingPathComponent($0).path }
            try PNGWriter.write(surface: first, to: paths[0], dpi: 150)
            try PNGWriter.write(surface: first, to: paths[1], dpi: 150)
            try PNGWriter.write(surface: second, to: paths[2], dpi: 150)
            return (try Data(contentsOf: URL(fileURLWithPath: paths[0])), try Data(contentsOf: URL(fileURLWithPath: paths[1])),
                    try Data(contentsOf: URL(fileURLWithPath: paths[2])))
        }
        #expect(a == b)
        #expect(a == c, "a surface drawn the same way writes the same bytes")
    }

    @Test func writesPendingDrawing() throws {
        // Drawing after the last flush must still reach the file.
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 8, 8)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 0, 0, 1)
        cairo_paint(cr)
        cairo_destroy(cr)
        let back = try withTemporaryFile { path in
            try PNGWriter.write(surface: surface, to: path, dpi: 72)
            return try decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(pixel(back, 4, 4) == (255, 0, 0, 255))
    }

    @Test func unwritablePathThrowsAndLeavesNothing() {
        let surface = makeSurface(CAIRO_FORMAT_RGB24, width: 4, height: 4)
        defer { cairo_surface_destroy(surface) }
        let path = "/nonexistent-bookrender-dir/page.png"
        #expect {
            try PNGWriter.write(surface: surface, to: path, dpi: 150)
        } throws: { error in
            let error = error as? OutputError
            return error?.message.contains(path) == true
                && error?.message.contains("No such file or directory") == true
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func fullDiskIsReported() throws {
        let surface = makeSurface(CAIRO_FORMAT_RGB24, width: 200, height: 200)
        defer { cairo_surface_destroy(surface) }
        // Through a symlink: the writer removes a partial regular file, and must leave a device
        // (here, at worst, the link) alone.
        try TestImages.inTemporaryDirectory { directory in
            let link = directory.appendingPathComponent("full.png").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
            #expect {
                try PNGWriter.write(surface: surface, to: link, dpi: 150)
            } throws: { error in
                error is OutputError
            }
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/dev/full")
        }
    }

    @Test func otherFormatsAreRefused() {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 4, 4)!
        defer { cairo_surface_destroy(surface) }
        #expect {
            try PNGWriter.write(surface: surface, to: "/tmp/never-written.png", dpi: 150)
        } throws: { error in
            (error as? OutputError)?.message.contains("only RGB24 and ARGB32") == true
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
    }

    @Test func badResolutionIsRefused() {
        let surface = makeSurface(CAIRO_FORMAT_RGB24, width: 4, height: 4)
        defer { cairo_surface_destroy(surface) }
        for dpi in [0, -150, Double.nan, Double.infinity] {
            #expect(throws: OutputError.self) { try PNGWriter.write(surface: surface, to: "/tmp/never-written.png", dpi: dpi) }
        }
    }
}
