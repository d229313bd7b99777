import Testing
import Foundation
import BookCompare
import BookTestSupport

/// `bookrender compare` as a user runs it: exit codes and the files it writes.
@Suite struct CompareCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var out: URL
    }

    static func compare(_ expected: URL, _ actual: URL, in dir: URL, _ extra: [String] = []) throws -> Run {
        let out = dir.appendingPathComponent("compare-report")
        let result = try run(try Repository.binary.path, ["compare", expected.path, actual.path, "--out", out.path] + extra)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr, out: out)
    }

    static func exists(_ url: URL, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path)
    }

    @Test func identicalFoldersExitZero() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = [Synthetic.Page(), Synthetic.Page(fill: Synthetic.blue), Synthetic.Page(textOffset: (0, 30))]
        let a = try ComparisonTests.folder(pages, in: dir, named: "a")
        let b = try ComparisonTests.folder(pages, in: dir, named: "b")
        let run = try Self.compare(a, b, in: dir)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("compared 3 pages: 3 same, 0 differ, 0 errors"))
        #expect(run.stdout.contains(run.out.appendingPathComponent("index.html").path))
        #expect(Self.exists(run.out, "report.json") && Self.exists(run.out, "index.html"))
    }

    @Test func aTwoPixelShiftOfATextLineExitsOneWithDiffAndReports() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ComparisonTests.folder([Synthetic.Page(), Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try ComparisonTests.folder([Synthetic.Page(), Synthetic.Page(textOffset: (2, 0)), Synthetic.Page()],
                                           in: dir, named: "b")
        let run = try Self.compare(a, b, in: dir)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("page-002.png: differs"))
        #expect(Self.exists(run.out, "diff/page-002.png"))
        #expect(!Self.exists(run.out, "diff/page-001.png"))
        let strip = try RGBAImage(contentsOf: run.out.appendingPathComponent("diff/page-002.png"))
        #expect(strip.width == 3 * Synthetic.width)
        let report = try JSONDecoder().decode(CompareReport.self, from: Data(contentsOf: run.out.appendingPathComponent("report.json")))
        #expect(report.status == .differs && report.exitCode == 1)
        let html = try String(contentsOf: run.out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("diff/page-002.png"))
    }

    @Test func antiAliasingNoiseAloneExitsZero() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ComparisonTests.folder([Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try ComparisonTests.folder([Synthetic.Page(lineOffset: (0.3, 0.2)), Synthetic.Page()], in: dir, named: "b")
        // Page 2: 1-pixel noise on every anti-aliased edge of the text.
        try Synthetic.jitterTextEdges(Synthetic.render()).0.writePNG(to: b.appendingPathComponent("page-002.png"))
        let run = try Self.compare(a, b, in: dir)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // Counting anti-aliasing makes the same pages differ.
        #expect(try Self.compare(a, b, in: dir, ["--include-aa"]).status == 1)
    }

    @Test func aColourChangeOfAFilledAreaExitsOne() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ComparisonTests.folder([Synthetic.Page()], in: dir, named: "a")
        let b = try ComparisonTests.folder([Synthetic.Page(fill: Synthetic.blue)], in: dir, named: "b")
        let run = try Self.compare(a, b, in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("within x 40 y 110 120×60"))
        // The same change inside an ignored region, or allowed by count, passes.
        #expect(try Self.compare(a, b, in: dir, ["--ignore", "40,110,120,60"]).status == 0)
        #expect(try Self.compare(a, b, in: dir, ["--ignore", "page-001.png:40,110,120,60"]).status == 0)
        #expect(try Self.compare(a, b, in: dir, ["--ignore", "page-002.png:40,110,120,60"]).status == 1)
        #expect(try Self.compare(a, b, in: dir, ["--max-diff-pixels", "7200"]).status == 0)
        #expect(try Self.compare(a, b, in: dir, ["--max-diff-ratio", "0.2"]).status == 0)
    }

    @Test func twoPNGFilesAndTheirSizeMismatch() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("expected.png"), b = dir.appendingPathComponent("actual.png")
        try Synthetic.render().writePNG(to: a)
        try Synthetic.render().writePNG(to: b)
        #expect(try Self.compare(a, b, in: dir).status == 0)
        try Synthetic.render(width: Synthetic.width, height: 240).writePNG(to: b)
        let run = try Self.compare(a, b, in: dir, ["--json"])
        #expect(run.status == 2)
        // stdout's findings are the common finding objects; report.json keeps them as text.
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((printed["findings"] as? [[String: Any]])?.first?["code"] as? String == "size-mismatch", "\(run.stdout)")
        let report = try JSONDecoder().decode(CompareReport.self, from: Data(contentsOf: run.out.appendingPathComponent("report.json")))
        #expect(report.pages.first?.status == .sizeMismatch)
        #expect(report.pages.first?.actualSize == PixelSize(width: Synthetic.width, height: 240))
        #expect(Self.exists(run.out, "report.json") && Self.exists(run.out, "diff/expected.png"))
    }

    @Test func aMissingPageExitsTwo() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ComparisonTests.folder([Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try ComparisonTests.folder([Synthetic.Page()], in: dir, named: "b")
        let run = try Self.compare(a, b, in: dir)
        #expect(run.status == 2)
        #expect(run.stdout.contains("page-002.png: missing-actual"))
        #expect(Self.exists(run.out, "report.json") && Self.exists(run.out, "index.html"))
    }

    @Test func unreadableInputAndBadFlags() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ComparisonTests.folder([Synthetic.Page()], in: dir, named: "a")
        let run = try Self.compare(a, dir.appendingPathComponent("missing"), in: dir)
        #expect(run.status == 2)
        #expect(run.stdout.contains("does not exist"))
        #expect(Self.exists(run.out, "report.json"))
        #expect(try Self.compare(a, a, in: dir, ["--ignore", "1,2,3"]).status == 64)
        #expect(try Self.compare(a, a, in: dir, ["--rasterizer", "ghostscript"]).status == 64)
        #expect(try Self.compare(a, a, in: dir, ["--threshold", "3"]).status == 64)
    }

    @Test func updateReRecordsTheExpectedPage() throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try ComparisonTests.folder([Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try ComparisonTests.folder([Synthetic.Page(), Synthetic.Page(fill: Synthetic.blue)], in: dir, named: "b")
        let run = try Self.compare(a, b, in: dir, ["--update"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("updated page-002.png: replaced"))
        #expect(try Data(contentsOf: a.appendingPathComponent("page-002.png")) == Data(contentsOf: b.appendingPathComponent("page-002.png")))
        let report = try JSONDecoder().decode(CompareReport.self, from: Data(contentsOf: run.out.appendingPathComponent("report.json")))
        #expect(report.updated.map(\.page) == ["page-002.png"])
        #expect(try Self.compare(a, b, in: dir).status == 0)
    }

    @Test(arguments: ["pdftoppm", "cairo"])
    func pdfInputs(rasterizer: String) throws {
        let dir = try temporaryDirectory("compare-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.pdf"), b = dir.appendingPathComponent("b.pdf")
        Synthetic.writePDF([Synthetic.Page(), Synthetic.Page()], to: a)
        Synthetic.writePDF([Synthetic.Page(), Synthetic.Page(textOffset: (0, 3))], to: b)
        #expect(try Self.compare(a, a, in: dir, ["--rasterizer", rasterizer, "--dpi", "96"]).status == 0)
        let run = try Self.compare(a, b, in: dir, ["--rasterizer", rasterizer, "--dpi", "96"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("page-002.png: differs"))
        let strip = try RGBAImage(contentsOf: run.out.appendingPathComponent("diff/page-002.png"))
        // 400 × 200 pt at 96 dpi is 533.3 × 266.7 px, rounded to the nearest as the PNG pages are.
        #expect(strip.width == 3 * 533 && strip.height == 267)
        // --update does not write into PDFs.
        #expect(try Self.compare(a, b, in: dir, ["--rasterizer", rasterizer, "--update"]).status == 2)
    }
}
