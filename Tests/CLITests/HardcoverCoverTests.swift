import Testing
import Foundation
import BookConfig
import BookTestSupport

/// A case-bound hardcover's cover sheet: its panels reach past the trim by the wrap that folds
/// round the boards, over a spine taken from the printer's hardcover table, as `pdfinfo -box` reads the PDF.
@Suite struct HardcoverCoverTests {
    /// (interior pages, spine in inches from Lulu's hardcover table)
    @Test(arguments: [(100, 0.5), (200, 0.75)])
    func theSheetReachesPastTheTrimByTheWrapOverTheTableSpine(_ pages: Int, _ spine: Double) throws {
        let dir = try temporaryDirectory("hardcover-\(pages)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = try CoverSheetTests().book(interiorPages: pages, profile: "lulu", in: dir)
        let pdf = dir.appendingPathComponent("cover.pdf")
        let r = try run(try Repository.binary.path, ["cover", book.path, "-o", pdf.path, "--profile", "lulu", "--binding", "hardcover", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let box = try #require(try PDFReaders.boxes(pdf).first)
        let trim = try #require(box["TrimBox"]), media = try #require(box["MediaBox"])
        // 6 × 9 in panels, 0.875 in of wrap on the top, bottom and outer edges.
        #expect(abs(trim.width - (2 * 432 + spine * 72)) < 0.01 && abs(trim.height - 648) < 0.01, "\(trim)")
        #expect(abs(media.width - (trim.width + 2 * 63)) < 0.01 && abs(media.height - (648 + 2 * 63)) < 0.01, "\(media)")
        let report = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        #expect(report["binding"] as? String == "hardcover")
        #expect(abs((report["spineInches"] as? Double ?? 0) - spine) < 1e-9)
        #expect(abs((report["mediaWidthInches"] as? Double ?? 0) - media.width / 72) < 1e-6, "\(report)")
    }

    @Test func aProfileWithoutAHardcoverRuleSaysSo() throws {
        let dir = try temporaryDirectory("hardcover-kdp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(try Repository.binary.path, ["cover", Repository.samples.appendingPathComponent("memoir/book.json").path,
                                                     "-o", dir.appendingPathComponent("c.pdf").path, "--profile", "kdp", "--binding", "hardcover"])
        #expect(r.status == 65, "\(r.status): \(r.stderr)")
        #expect(r.stderr.contains("no hardcover"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("c.pdf").path))
    }

    /// Lulu binds a paperback from 32 pages and a hardcover from 24: a 26-page interior is refused
    /// as a paperback, with the option that binds it, and exported and passed as a hardcover.
    @Test func aBookTooShortForAPaperbackIsExportedAsAHardcover() throws {
        let dir = try temporaryDirectory("hardcover-interior")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = try CoverSheetTests().book(interiorPages: 26, profile: "lulu", in: dir)
        let pdf = dir.appendingPathComponent("interior.pdf")
        let paperback = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path, "--profile", "lulu"])
        #expect(paperback.status != 0 && paperback.stderr.contains("at least 32") && paperback.stderr.contains("--binding hardcover"),
                "\(paperback.status): \(paperback.stderr)")
        #expect(!FileManager.default.fileExists(atPath: pdf.path))
        let hardcover = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path, "--profile", "lulu", "--binding", "hardcover"])
        #expect(hardcover.status == 0, "\(hardcover.stderr)")
        let checked = try run(try Repository.binary.path, ["preflight", pdf.path, "--profile", "lulu", "--binding", "hardcover"])
        #expect(checked.status == 0 && checked.stdout.contains("0 error(s)"), "\(checked.stdout) \(checked.stderr)")
        let asPaperback = try run(try Repository.binary.path, ["preflight", pdf.path, "--profile", "lulu"])
        #expect(asPaperback.status != 0 && asPaperback.stdout.contains("--binding hardcover"), "\(asPaperback.stdout)")
        // Its cover does not warn of a page count the hardcover has; the paperback's does.
        let sheet = dir.appendingPathComponent("cover.pdf").path
        let cased = try run(try Repository.binary.path, ["cover", book.path, "-o", sheet, "--profile", "lulu", "--binding", "hardcover"])
        #expect(cased.status == 0 && !cased.stderr.contains("pageCount"), "\(cased.stderr)")
        let bound = try run(try Repository.binary.path, ["cover", book.path, "-o", sheet, "--profile", "lulu"])
        #expect(bound.status == 0 && bound.stderr.contains("prints at least 32"), "\(bound.stderr)")
        let unprinted = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path, "--binding", "hardcover"])
        #expect(unprinted.status == 64 && unprinted.stderr.contains("give --profile"), "\(unprinted.status): \(unprinted.stderr)")
    }
}
