import Foundation
import Testing
import BookRenderKit
import BookTestSupport

/// Every golden case exported by the built program with its shaping cache on and off
/// (`BOOKRENDER_SHAPE_CACHE=0`): the same PDF bytes both ways, and both ways the pages of the
/// case's references. The in-process suite never has the cache (it lives in the executable only).
@Suite struct GoldenShapeCacheTests {
    @Test(arguments: GoldenCase.all)
    func exportsTheSameWithTheShapingCacheOnAndOff(_ c: GoldenCase) throws {
        let work = try temporaryDirectory("golden-shape-cache")
        defer { try? FileManager.default.removeItem(at: work) }
        var pdfs: [String: Data] = [:]
        for setting in ["1", "0"] {
            let pdf = work.appendingPathComponent("\(setting).pdf"), png = work.appendingPathComponent("png-\(setting)")
            let (result, stats) = try bookrenderWithShapeCache(
                setting, ["export", c.input.path, "-o", pdf.path, "--png", png.path, "--dpi", String(GoldenCase.dpi)])
            try #require(result.status == 0, "\(c), BOOKRENDER_SHAPE_CACHE=\(setting): \(result.stderr)")
            #expect(stats.state == (setting == "1" ? "on" : "off"), "\(c): \(stats)")
            pdfs[setting] = try Data(contentsOf: pdf)
            guard !GoldenCase.recording, FileManager.default.fileExists(atPath: c.expected.path) else { continue }
            let reportDirectory = GoldenCase.failures.appendingPathComponent("shape-cache-\(setting)/\(c.feature)/\(c.name)")
            try? FileManager.default.removeItem(at: reportDirectory)
            let report = try PageComparison.compare(expected: .folder(c.expected), actual: .folder(png), reportFolder: reportDirectory)
            #expect(report.status == .same, "\(c) with BOOKRENDER_SHAPE_CACHE=\(setting) differs from its reference; see \(reportDirectory.path)/index.html\n\(report.summaryText(reportDirectory: reportDirectory))")
            if report.status == .same { try? FileManager.default.removeItem(at: reportDirectory) }
        }
        #expect(pdfs["1"] == pdfs["0"], "\(c): the PDFs differ with the shaping cache on and off")
    }
}
