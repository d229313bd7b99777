import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// The project's own golden-image suite. Each case is rendered to PNG pages and compared, by the
/// same code as `bookrender compare`, with its references; a failure leaves expected | diff | actual
/// images and the JSON/HTML reports in out/golden-failures/<feature>/<case>/.
@Suite struct GoldenSuiteTests {
    /// Every folder under Tests/Goldens is a case the suite runs: a feature folder without cases,
    /// or a case folder it cannot read, would otherwise go untested without a word.
    @Test func everyFolderIsACase() {
        #expect(!GoldenCase.all.isEmpty, "no golden cases under \(GoldenCase.root.path)")
        #expect(GoldenCase.malformed.isEmpty, "\(GoldenCase.malformed)")
        let withCases = Set(GoldenCase.all.map(\.feature))
        for feature in GoldenCase.features {
            #expect(withCases.contains(feature), "Tests/Goldens/\(feature) holds no case")
        }
    }

    @Test(arguments: GoldenCase.all)
    func rendersLikeItsReference(_ c: GoldenCase) throws {
        let work = try temporaryDirectory("golden")
        defer { try? FileManager.default.removeItem(at: work) }
        let serial = work.appendingPathComponent("serial")
        let files = try TestBooks.open(c.input, workers: 1)
            .export(ExportOptions(png: .init(folder: serial, dpi: GoldenCase.dpi))).pngFiles

        // Determinism: the same book laid out and drawn on two threads writes the same bytes.
        let parallel = try TestBooks.open(c.input, workers: 2)
            .export(ExportOptions(png: .init(folder: work.appendingPathComponent("parallel"), dpi: GoldenCase.dpi))).pngFiles
        #expect(files.map { URL(fileURLWithPath: $0).lastPathComponent } == parallel.map { URL(fileURLWithPath: $0).lastPathComponent })
        for (a, b) in zip(files, parallel) {
            #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b),
                    "\(c): \(URL(fileURLWithPath: a).lastPathComponent) differs between a serial and a parallel run")
        }

        if GoldenCase.recording {
            let existing = FileManager.default.fileExists(atPath: c.expected.path)
                ? try PageSource.folder(c.expected) : PageSource(images: [], label: "no references yet")
            let report = try PageComparison.compare(expected: existing, actual: .folder(serial))
            try PageComparison.rerecord(expected: c.expected, actual: serial, report: report)
            return
        }
        guard FileManager.default.fileExists(atPath: c.expected.path) else {
            Issue.record("\(c) has no references; record them with BOOKRENDER_RECORD_GOLDENS=1 swift test --filter GoldenTests")
            return
        }
        try? FileManager.default.removeItem(at: c.failureReport)
        let report = try PageComparison.compare(expected: .folder(c.expected), actual: .folder(serial), reportFolder: c.failureReport)
        #expect(report.status == .same, "\(c) differs from its reference; see \(c.failureReport.path)/index.html\n\(report.summaryText(reportDirectory: c.failureReport))")
        if report.status == .same { try? FileManager.default.removeItem(at: c.failureReport) }
    }

    /// The PDF path must draw what the PNG path draws: poppler's raster of each PDF page matches our
    /// PNG of it, allowing for the two rasterizers' different anti-aliasing of glyph edges.
    @Test(arguments: GoldenCase.all)
    func pdfRasterizedByPopplerMatchesThePNG(_ c: GoldenCase) throws {
        let work = try temporaryDirectory("golden-pdf")
        defer { try? FileManager.default.removeItem(at: work) }
        let pdf = work.appendingPathComponent("book.pdf")
        // Higher than the references' DPI: at 30 dpi body text is all glyph edges, where the two
        // rasterizers legitimately disagree.
        let dpi = 72.0
        let pngs = try TestBooks.open(c.input)
            .export(ExportOptions(pdf: pdf, png: .init(folder: work.appendingPathComponent("png"), dpi: dpi))).pngFiles
            .map { URL(fileURLWithPath: $0) }
        let report = try Self.crossCheck(pngs: pngs, pdf: pdf, dpi: dpi,
                                         reportFolder: GoldenCase.failures.appendingPathComponent("pdf-vs-png/\(c.feature)/\(c.name)"))
        #expect(report.status == .same, "\(c): PDF and PNG disagree beyond anti-aliasing\n\(report.summaryText(reportDirectory: nil))")
    }

    /// Our PNG pages against poppler's raster of the PDF, both averaged over 3 × 3 pixels.
    static func crossCheck(pngs: [URL], pdf: URL, dpi: Double, reportFolder: URL?) throws -> CompareReport {
        let rasters = try PageSource.pdf(pdf, dpi: dpi, rasterizer: .pdftoppm)
        #expect(rasters.names.count == pngs.count)
        let ours = try pngs.map { try RGBAImage(contentsOf: $0).averaged(over: 3) }
        let theirs = try rasters.names.map { try rasters.image(named: $0).averaged(over: 3) }
        return try PageComparison.compare(
            expected: PageSource(images: zip(pngs, ours).map { ($0.lastPathComponent, $1) }, label: "PNG path"),
            actual: PageSource(images: zip(pngs, theirs).map { ($0.lastPathComponent, $1) }, label: "PDF via pdftoppm"),
            options: crossCheckOptions, reportFolder: reportFolder)
    }

    /// pdftoppm (Splash) and cairo smooth glyph edges differently and round image edges to different
    /// pixels. Both pages are averaged over 3 × 3 blocks first, which leaves glyph-edge noise small
    /// and a real difference (a missing picture or line, a moved paragraph, a wrong colour) large.
    static let crossCheckOptions = CompareOptions(threshold: 0.1, tolerance: 16, maxDiffRatio: 0.04)

    /// The cross-check's allowance still catches what it is for: a picture the PDF path lost.
    @Test func crossCheckCatchesAPictureMissingFromThePDF() throws {
        let (c, tree) = try #require(GoldenCase.all.lazy.compactMap { c -> (GoldenCase, PageTree)? in
            guard let tree = try? TestBooks.open(c.input).layout() else { return nil }
            return tree.pages.contains { !$0.images.isEmpty } ? (c, tree) : nil
        }.first, "no golden case has a picture")
        let work = try temporaryDirectory("golden-lost")
        defer { try? FileManager.default.removeItem(at: work) }
        var broken = tree
        for i in broken.pages.indices {
            broken.pages[i].items.removeAll { if case .image = $0 { return true } else { return false } }
        }
        let pdf = work.appendingPathComponent("broken.pdf")
        try broken.writePDF(to: pdf)
        let pngs = try tree.writePNGs(to: work.appendingPathComponent("png"), dpi: 72)
        let report = try Self.crossCheck(pngs: pngs, pdf: pdf, dpi: 72, reportFolder: nil)
        #expect(report.status == .differs, "\(c): the PDF lost its pictures")
    }

    /// Every page is laid on the palette's background, so changing that one token changes every case.
    @Test func aOneTokenChangeFailsWithDiffImages() throws {
        let c = try #require(GoldenCase.all.first { FileManager.default.fileExists(atPath: $0.expected.path) }, "record the goldens first")
        var book = try TestBooks.open(c.input).book
        book.tokens = (book.tokens ?? .object([:])).merging(.object(["palette": .object(["background": .string("#2255CC")])]))
        let work = try temporaryDirectory("token")
        defer { try? FileManager.default.removeItem(at: work) }
        let actual = work.appendingPathComponent("png")
        try TestBooks.document(book, folder: c.folder).export(ExportOptions(png: .init(folder: actual, dpi: GoldenCase.dpi)))
        let reportDir = work.appendingPathComponent("report")
        let report = try PageComparison.compare(expected: .folder(c.expected), actual: .folder(actual), reportFolder: reportDir)
        #expect(report.status == .differs)
        let diffs = (try? FileManager.default.contentsOfDirectory(atPath: reportDir.appendingPathComponent("diff").path)) ?? []
        #expect(!diffs.isEmpty, "diff images are written")
        #expect(FileManager.default.fileExists(atPath: reportDir.appendingPathComponent("index.html").path))
        #expect(FileManager.default.fileExists(atPath: reportDir.appendingPathComponent("report.json").path))
    }
}

extension RGBAImage {
    /// Each n × n block replaced by its mean: the page as seen from further away.
    func averaged(over n: Int) -> RGBAImage {
        let w = width / n, h = height / n
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var sum = (0, 0, 0, 0)
                for dy in 0..<n {
                    var i = ((y * n + dy) * width + x * n) * 4
                    for _ in 0..<n {
                        sum.0 += Int(pixels[i]); sum.1 += Int(pixels[i + 1]); sum.2 += Int(pixels[i + 2]); sum.3 += Int(pixels[i + 3])
                        i += 4
                    }
                }
                let o = (y * w + x) * 4, c = n * n
                out[o] = UInt8(sum.0 / c); out[o + 1] = UInt8(sum.1 / c); out[o + 2] = UInt8(sum.2 / c); out[o + 3] = UInt8(sum.3 / c)
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}
