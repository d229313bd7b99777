import Testing
import Foundation
import BookTestSupport

/// A book's own PNG pages against its own PDF, as a golden suite checks them: the same page
/// sizes from either rasterizer, and differences within the allowance docs/compare.md gives.
@Suite struct SelfCompareTests {
    /// docs/compare.md's allowances at 72 dpi: glyphs a pixel apart between cairo's image
    /// backend and each of poppler's rasterizers.
    static let allowance = ["cairo": "0.03", "pdftoppm": "0.08"]

    @Test(arguments: AccessiblePDFTests.samples)
    func pngPagesMatchTheirOwnPDF(_ sample: String) throws {
        let dir = try temporaryDirectory("self-compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = try Repository.binary.path
        let pdf = dir.appendingPathComponent("book.pdf").path, pngs = dir.appendingPathComponent("pages").path
        let e = try run(binary, ["export", Repository.samples.appendingPathComponent(sample).path, "-o", pdf, "--png", pngs, "--dpi", "72"])
        #expect(e.status == 0, "\(e.stderr)")
        for rasterizer in ["cairo", "pdftoppm"] {
            // Run where it could write, to see that without --out it writes nothing.
            let work = dir.appendingPathComponent("cwd-\(rasterizer)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let c = try run(binary, ["compare", pngs, pdf, "--dpi", "72", "--rasterizer", rasterizer,
                                     "--max-diff-ratio", Self.allowance[rasterizer]!, "--json"], currentDirectory: work)
            #expect(c.status == 0, "\(rasterizer): \(c.stdout.prefix(2000))\(c.stderr)")
            let report = try JSONSerialization.jsonObject(with: c.stdoutData) as! [String: Any]
            #expect((report["findings"] as? [Any])?.isEmpty == true, "\(rasterizer): \(report["findings"] ?? "")")
            let pages = report["pages"] as! [[String: Any]]
            #expect(!pages.isEmpty && pages.allSatisfy { $0["status"] as? String == "same" }, "\(rasterizer)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "compare without --out wrote into its folder")
        }
    }

    /// Pages exported at 150 dpi against their own PDF with no --dpi: the PDF is drawn at the
    /// resolution the PNGs record, so every page pairs at its size.
    @Test func aPDFIsRasterizedAtThePNGsRecordedResolution() throws {
        let dir = try temporaryDirectory("self-compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = try Repository.binary.path
        let pdf = dir.appendingPathComponent("book.pdf").path, pngs = dir.appendingPathComponent("pages").path
        let e = try run(binary, ["export", Repository.samples.appendingPathComponent("storybook/book.json").path, "-o", pdf,
                                 "--png", pngs, "--dpi", "150", "--pages", "1"])
        #expect(e.status == 0, "\(e.stderr)")
        for (expected, actual) in [(pngs, pdf), (pdf, pngs)] {
            let c = try run(binary, ["compare", expected, actual, "--rasterizer", "cairo", "--max-diff-ratio", "0.03", "--json"])
            let report = try JSONSerialization.jsonObject(with: c.stdoutData) as! [String: Any]
            let pages = report["pages"] as! [[String: Any]]
            #expect(pages.count == 1 && pages.allSatisfy { $0["status"] as? String == "same" },
                    "\(pages.map { "\($0["page"] ?? ""): \($0["status"] ?? "")" })")
            #expect((report["options"] as? [String: Any])?["dpi"] as? Double == 150, "\(report["options"] ?? "")")
        }
    }
}
