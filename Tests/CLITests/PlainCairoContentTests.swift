import Foundation
import Testing
import BookTestSupport

/// The program has cairo write page content plain (`CAIRO_DEBUG_PDF`, set at its start for
/// cairo 1.16) and its PDF sink compresses and marks it once (`PlainStreams`);
/// `BOOKRENDER_PLAIN_CAIRO_CONTENT=0` leaves cairo compressing it and the finishing marking it,
/// as a library does. Both ways the PDF must read, draw and extract the same.
@Suite struct PlainCairoContentTests {
    struct Export {
        let pdf: URL
        let bytes: Data
    }

    static func export(_ book: URL, plain: Bool, into dir: URL, arguments: [String] = []) throws -> Export {
        let pdf = dir.appendingPathComponent(plain ? "plain.pdf" : "compressed.pdf")
        var environment = ProcessInfo.processInfo.environment
        environment["BOOKRENDER_PLAIN_CAIRO_CONTENT"] = plain ? nil : "0"
        environment["CAIRO_DEBUG_PDF"] = nil
        let result = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path, "-q"] + arguments, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return Export(pdf: pdf, bytes: try Data(contentsOf: pdf))
    }

    /// Every page drawn at 30 dpi, by name.
    static func pages(_ pdf: URL, in dir: URL, prefix: String) throws -> [String: Data] {
        try run("pdftoppm", ["-r", "30", "-png", pdf.path, dir.appendingPathComponent(prefix).path])
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasPrefix(prefix + "-") {
            out[String(name.dropFirst(prefix.count))] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return out
    }

    /// The page content as readers decode it, every stream written out plain by qpdf.
    static func decoded(_ pdf: URL, in dir: URL) throws -> Data {
        let out = dir.appendingPathComponent(pdf.deletingPathExtension().lastPathComponent + "-qdf.pdf")
        let result = try run("qpdf", ["--qdf", "--object-streams=disable", pdf.path, out.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try Data(contentsOf: out)
    }

    /// How often `needle` occurs in `bytes` (a file of many megabytes, searched as bytes).
    static func count(_ needle: String, in bytes: Data) -> Int {
        let pattern = Array(needle.utf8)
        return bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, !pattern.isEmpty else { return 0 }
            var found = 0, offset = 0
            while raw.count - offset >= pattern.count,
                  let hit = memchr(base + offset, Int32(pattern[0]), raw.count - offset - pattern.count + 1) {
                let at = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(hit, pattern, pattern.count) == 0 {
                    found += 1
                    offset = at + pattern.count
                } else {
                    offset = at + 1
                }
            }
            return found
        }
    }

    @Test(arguments: ["storybook", "memoir"])
    func theSamePDFEitherWay(_ sample: String) throws {
        let dir = try temporaryDirectory("plain-content")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = Repository.samples.appendingPathComponent(sample).appendingPathComponent("book.json")
        let plain = try Self.export(book, plain: true, into: dir), compressed = try Self.export(book, plain: false, into: dir)

        for pdf in [plain.pdf, compressed.pdf] {
            let check = try run("qpdf", ["--check", pdf.path])
            #expect(check.status == 0, "\(pdf.lastPathComponent): \(check.stdout)\(check.stderr)")
        }
        #expect(try run("pdftotext", [plain.pdf.path, "-"]).stdout == (try run("pdftotext", [compressed.pdf.path, "-"]).stdout))
        let drawn = try Self.pages(plain.pdf, in: dir, prefix: "p"), drawnBefore = try Self.pages(compressed.pdf, in: dir, prefix: "c")
        #expect(!drawn.isEmpty)
        #expect(drawn.keys.sorted() == drawnBefore.keys.sorted())
        for (name, png) in drawn { #expect(png == drawnBefore[name], "page \(name) differs") }

        // The same artifacts marked; no page content left plain in the file; and none of cairo's
        // compressed content left behind the finishing's update, so the file is smaller.
        let marks = Self.count("/Artifact BMC", in: try Self.decoded(plain.pdf, in: dir))
        #expect(marks > 0)
        #expect(marks == Self.count("/Artifact BMC", in: try Self.decoded(compressed.pdf, in: dir)))
        #expect(Self.count(">>\nstream\n1 0 0 -1 0 ", in: plain.bytes) == 0)
        #expect(plain.bytes.count < compressed.bytes.count)
    }

    /// A CMYK file is converted and finished where it was drawn: in one incremental update where
    /// its page content was marked as it was drawn, in two (the conversion's, then the finishing's,
    /// which marks the converted content) where cairo compressed it; the same pages either way.
    @Test func aCMYKFileIsFinishedInOneUpdateWhereItsContentWasMarkedAsDrawn() throws {
        let dir = try temporaryDirectory("plain-content-cmyk")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Photographs most of the file, as in a picture book: converted in place, not rewritten.
        for i in 0..<3 {
            try TestImages.convert(["-seed", "\(i)", "-size", "900x1200", "plasma:", "-quality", "90"], output: "out.jpg")
                .write(to: dir.appendingPathComponent("p\(i).jpg"))
        }
        let book = dir.appendingPathComponent("book.json")
        try Data("""
            {"schema": 1, "kind": "storybook", "language": "en", "title": "Plasma", "author": "Tester", "cover": {"photo": "p0.jpg"},
             "characters": {"main": {"name": "Pip"}},
             "pages": [{"type": "illustration", "image": "p0.jpg", "text": "Red and blue."},
                       {"type": "illustration", "image": "p1.jpg", "text": "Green and gold."},
                       {"type": "illustration", "image": "p2.jpg", "text": "The end."}]}
            """.utf8).write(to: book)
        let arguments = ["--profile", "ingramspark", "--force"]
        let plain = try Self.export(book, plain: true, into: dir, arguments: arguments)
        let compressed = try Self.export(book, plain: false, into: dir, arguments: arguments)
        #expect(Self.count("%%EOF", in: plain.bytes) == 2, "cairo's file and one update")
        #expect(Self.count("%%EOF", in: compressed.bytes) == 3, "cairo's file, the conversion's update and the finishing's")
        for pdf in [plain, compressed] {
            // cairo's header, its version made 1.3: the file cairo drew, not qpdf's copy of it.
            #expect(pdf.bytes.starts(with: Data("%PDF-1.3\n".utf8) + Data([0x25, 0xb5, 0xed, 0xae, 0xfb])))
            let check = try run("qpdf", ["--check", pdf.pdf.path])
            #expect(check.status == 0, "\(pdf.pdf.lastPathComponent): \(check.stdout)\(check.stderr)")
            let decoded = String(decoding: try Self.decoded(pdf.pdf, in: dir), as: UTF8.self)
            let rgb = decoded.split(separator: "\n").filter { $0.hasSuffix(" rg") || $0.hasSuffix(" RG") }
            #expect(rgb.isEmpty, "\(pdf.pdf.lastPathComponent): \(rgb.prefix(3))")
            #expect(decoded.contains("/Artifact BMC"))
        }
        let drawn = try Self.pages(plain.pdf, in: dir, prefix: "p"), drawnBefore = try Self.pages(compressed.pdf, in: dir, prefix: "c")
        #expect(!drawn.isEmpty && drawn.keys.sorted() == drawnBefore.keys.sorted())
        for (name, png) in drawn { #expect(png == drawnBefore[name], "page \(name) differs") }
    }

    @Test func theSameBookGivesTheSameBytes() throws {
        let dir = try temporaryDirectory("plain-content-twice")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = Repository.samples.appendingPathComponent("memoir").appendingPathComponent("book.json")
        let first = try Self.export(book, plain: true, into: dir).bytes
        let second = try Self.export(book, plain: true, into: dir).bytes
        #expect(first == second)
    }
}
