import Foundation
import Testing
import BookTestSupport

/// `export --preview [N]`: the first pages alone, marked, at screen resolution, and a small PDF.
@Suite struct PreviewCLITests {
    static let samples = ["storybook/book.json", "memoir/book.json", "apps/memoirai/storybook.json",
                          "apps/roger/story.json", "apps/infinitestories/story.json"]

    func pageCount(_ pdf: URL) throws -> Int? {
        let info = try run("pdfinfo", [pdf.path]).stdout
        return info.firstMatch(of: /Pages:\s+(\d+)/).flatMap { Int($0.1) }
    }

    @Test(arguments: samples)
    func onePageMarkedAsAPNGAndASmallPDF(_ sample: String) throws {
        let dir = try temporaryDirectory("preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = Repository.samples.appendingPathComponent(sample)
        let pdf = dir.appendingPathComponent("preview.pdf"), png = dir.appendingPathComponent("preview")
        let r = try run(try Repository.binary.path, ["export", book.path, "--preview", "-o", pdf.path, "--png", png.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: png.path) == ["page-001.png"])
        #expect(try pageCount(pdf) == 1)
        // The pictures at screen size: a preview of a page is far smaller than the book's page 1.
        let full = dir.appendingPathComponent("full.pdf"), unmarked = dir.appendingPathComponent("unmarked")
        let whole = try run(try Repository.binary.path, ["export", book.path, "-o", full.path, "--png", unmarked.path, "--dpi", "96", "--pages", "1"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let bytes = try Data(contentsOf: pdf).count
        #expect(bytes < 120_000, "\(bytes) bytes")
        // At 96 dpi, and the same page but for the mark in its top corner.
        let report = dir.appendingPathComponent("compare")
        let compared = try run(try Repository.binary.path, ["compare", unmarked.appendingPathComponent("page-001.png").path,
                                                            png.appendingPathComponent("page-001.png").path, "--out", report.path])
        #expect(compared.status == 1, "the mark shows: \(compared.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("report.json"))) as! [String: Any]
        let page = (json["pages"] as! [[String: Any]])[0]
        let box = page["boundingBox"] as! [String: Int]
        let size96 = page["expectedSize"] as! [String: Int]
        #expect(page["actualSize"] as! [String: Int] == size96)
        #expect(box["y"]! + box["height"]! < size96["height"]! / 8, "the mark is at the top: \(box)")
        #expect(box["x"]! > size96["width"]! / 2, "and on the outer side of a right-hand page: \(box)")
    }

    /// A book whose entry after those the preview needs has a damaged picture: the preview never
    /// reads it. One page is the cover alone; three are the cover, two entries and the one after
    /// them (the storybook's fourth entry is a spread, its picture the next one read).
    @Test(arguments: [(1, 0), (3, 3)])
    func aNumberOfPagesAndThePagesAfterThemNeverRead(_ count: Int, _ damagedEntry: Int) throws {
        let dir = try temporaryDirectory("preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = dir.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: book.appendingPathComponent("book.json"))) as! [String: Any]
        let picture = try #require((json["pages"] as! [[String: Any]])[damagedEntry]["image"] as? String)
        try Data("damaged".utf8).write(to: book.appendingPathComponent(picture))
        let pdf = dir.appendingPathComponent("p.pdf"), png = dir.appendingPathComponent("p")
        let r = try run(try Repository.binary.path, ["export", book.appendingPathComponent("book.json").path, "--preview", "\(count)",
                                                     "-o", pdf.path, "--png", png.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try pageCount(pdf) == count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: png.path).sorted() == (1...count).map { String(format: "page-%03d.png", $0) })
        let whole = try run(try Repository.binary.path, ["export", book.appendingPathComponent("book.json").path, "-o", dir.appendingPathComponent("w.pdf").path])
        #expect(whole.status != 0 && whole.stderr.contains(picture), "the whole book does read the damaged \(picture): \(whole.stderr)")
    }

    @Test func aPreviewIsRefusedWithWhatItCannotBe() throws {
        let book = Repository.samples.appendingPathComponent("memoir/book.json").path
        for (extra, expected) in [(["--preview", "--profile", "kdp", "-o", "/tmp/x.pdf"], "--profile"),
                                  (["--preview", "2", "--epub", "/tmp/x.epub"], "EPUB"),
                                  (["--preview", "0", "-o", "/tmp/x.pdf"], "at least 1 page")] {
            let r = try run(try Repository.binary.path, ["export", book] + extra)
            #expect(r.status == 64, "\(extra): \(r.stderr)")
            #expect(r.stderr.contains(expected), "\(r.stderr)")
        }
    }
}
