import Testing
import Foundation
import BookCompare
import BookTestSupport

/// Folders, PDFs, reports and re-recording, in process.
@Suite struct ComparisonTests {
    /// A folder of pages page-001.png… drawn from `pages`.
    static func folder(_ pages: [Synthetic.Page], in parent: URL, named name: String) throws -> URL {
        let url = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (index, page) in pages.enumerated() {
            try Synthetic.render(page).writePNG(to: url.appendingPathComponent(String(format: "page-%03d.png", index + 1)))
        }
        return url
    }

    @Test func identicalFoldersAreTheSame() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = [Synthetic.Page(), Synthetic.Page(fill: Synthetic.blue)]
        let a = try Self.folder(pages, in: dir, named: "a"), b = try Self.folder(pages, in: dir, named: "b")
        let out = dir.appendingPathComponent("report")
        let report = try Comparison.run(expected: a, actual: b, reportDirectory: out)
        #expect(report.status == .same && report.exitCode == 0)
        #expect(report.summary.pages == 2 && report.summary.same == 2)
        #expect(report.pages.allSatisfy { $0.identical })
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("diff").path).isEmpty)
    }

    @Test func differingPageGetsAStripAndBothReports() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.folder([Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try Self.folder([Synthetic.Page(), Synthetic.Page(textOffset: (0, 2))], in: dir, named: "b")
        let out = dir.appendingPathComponent("report")
        let report = try Comparison.run(expected: a, actual: b, reportDirectory: out)
        #expect(report.status == .differs && report.exitCode == 1)
        let page = try #require(report.pages.first { $0.name == "page-002.png" })
        #expect(page.status == .differs)
        #expect(page.diffImage == "diff/page-002.png")
        #expect(report.pages.first { $0.name == "page-001.png" }?.diffImage == nil)

        let strip = try RGBAImage(contentsOf: out.appendingPathComponent("diff/page-002.png"))
        #expect(strip.width == 3 * Synthetic.width && strip.height == Synthetic.height)

        // The JSON parses, as JSON and back into the report type, with the fields a tool reads.
        let data = try Data(contentsOf: out.appendingPathComponent("report.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["status"] as? String == "differs")
        let pages = try #require(json["pages"] as? [[String: Any]])
        let second = try #require(pages.first { $0["name"] as? String == "page-002.png" })
        #expect(second["status"] as? String == "differs")
        #expect((second["differingPixels"] as? Int ?? 0) > 0)
        #expect(second["boundingBox"] is [String: Any])
        #expect(second["ratio"] is Double && second["antialiasedPixels"] is Int && second["maxChannelDelta"] is Int)
        let decoded = try JSONDecoder().decode(CompareReport.self, from: data)
        #expect(decoded.pages == report.pages)

        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("src=\"diff/page-002.png\""))
        #expect(html.contains("page-002.png") && html.contains("differs"))
        #expect(!html.contains("http://") && !html.contains("https://"), "no external assets")
    }

    @Test func missingPagesAndSizeMismatchAreErrors() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.folder([Synthetic.Page(), Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try Self.folder([Synthetic.Page()], in: dir, named: "b")
        try Synthetic.render(width: 300, height: 200).writePNG(to: b.appendingPathComponent("page-002.png"))
        try Synthetic.render().writePNG(to: b.appendingPathComponent("page-004.png"))
        let out = dir.appendingPathComponent("report")
        let report = try Comparison.run(expected: a, actual: b, reportDirectory: out)
        #expect(report.status == .error && report.exitCode == 2)
        let status = Dictionary(uniqueKeysWithValues: report.pages.map { ($0.name, $0.status) })
        #expect(status == ["page-001.png": .same, "page-002.png": .sizeMismatch,
                           "page-003.png": .missingActual, "page-004.png": .missingExpected])
        let mismatch = try #require(report.pages.first { $0.status == .sizeMismatch })
        #expect(mismatch.expectedSize == PixelSize(width: Synthetic.width, height: Synthetic.height))
        #expect(mismatch.actualSize == PixelSize(width: 300, height: 200))
        #expect(mismatch.message?.contains("\(Synthetic.width)×200") == true)
        // Each finding still gets a picture of what is there.
        for name in ["page-002.png", "page-003.png", "page-004.png"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("diff/\(name)").path), "\(name)")
        }
        #expect(report.summary.errors == 3)
    }

    @Test func unreadableInputsAreReportedNotThrown() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.folder([Synthetic.Page()], in: dir, named: "a")
        let out = dir.appendingPathComponent("report")
        let report = try Comparison.run(expected: a, actual: dir.appendingPathComponent("nowhere"), reportDirectory: out)
        #expect(report.status == .error && report.exitCode == 2)
        #expect(report.findings.contains { $0.contains("does not exist") })
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))

        // A corrupt page is that page's finding.
        let b = try Self.folder([Synthetic.Page()], in: dir, named: "b")
        try Data("garbage".utf8).write(to: b.appendingPathComponent("page-001.png"))
        let broken = try Comparison.run(expected: a, actual: b, reportDirectory: nil)
        #expect(broken.pages.first?.status == .unreadable)
        #expect(broken.pages.first?.message?.contains("ACTUAL") == true)
    }

    @Test func reRecordingReplacesAddsAndRemovesPages() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.folder([Synthetic.Page(), Synthetic.Page(), Synthetic.Page()], in: dir, named: "a")
        let b = try Self.folder([Synthetic.Page(), Synthetic.Page(fill: Synthetic.blue)], in: dir, named: "b")
        try Synthetic.render().writePNG(to: b.appendingPathComponent("page-009.png"))
        let untouched = try FileManager.default.attributesOfItem(atPath: a.appendingPathComponent("page-001.png").path)[.modificationDate] as? Date

        let report = try Comparison.run(expected: a, actual: b, reportDirectory: nil)
        let actions = try Rerecord.update(expected: a, actual: b, report: report)
        #expect(Set(actions.map { "\($0.page) \($0.action.rawValue)" })
            == ["page-002.png replaced", "page-009.png added", "page-003.png removed"])
        #expect(try Data(contentsOf: a.appendingPathComponent("page-002.png")) == Data(contentsOf: b.appendingPathComponent("page-002.png")))
        #expect(!FileManager.default.fileExists(atPath: a.appendingPathComponent("page-003.png").path))
        let after = try FileManager.default.attributesOfItem(atPath: a.appendingPathComponent("page-001.png").path)[.modificationDate] as? Date
        #expect(after == untouched, "a page that was the same is left alone")
        #expect(try Comparison.run(expected: a, actual: b, reportDirectory: nil).status == .same)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: a.path).allSatisfy { !$0.hasPrefix(".") })

        // First recording into a folder that does not exist yet.
        let fresh = dir.appendingPathComponent("new-refs")
        let first = try Comparison.run(expected: fresh, actual: b, reportDirectory: nil)
        #expect(first.status == .error)
        let recorded = try Rerecord.update(expected: fresh, actual: b, report: first)
        #expect(recorded.count == 3 && recorded.allSatisfy { $0.action == .added })
        #expect(try Comparison.run(expected: fresh, actual: b, reportDirectory: nil).status == .same)
    }

    @Test func reRecordingRefusesPDFs() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("a.pdf")
        Synthetic.writePDF([Synthetic.Page()], to: pdf)
        let report = try Comparison.run(expected: pdf, actual: pdf, rasterizer: .cairo, reportDirectory: nil)
        #expect(throws: CompareError.self) { try Rerecord.update(expected: pdf, actual: pdf, report: report) }
    }

    @Test(arguments: Rasterizer.allCases)
    func pdfsAreRasterizedAndComparedPageByPage(rasterizer: Rasterizer) throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = dir.appendingPathComponent("book.pdf")
        let modified = dir.appendingPathComponent("modified.pdf")
        let short = dir.appendingPathComponent("short.pdf")
        Synthetic.writePDF([Synthetic.Page(), Synthetic.Page(textOffset: (0, 20))], to: original)
        Synthetic.writePDF([Synthetic.Page(), Synthetic.Page(textOffset: (0, 20), fill: Synthetic.blue)], to: modified)
        Synthetic.writePDF([Synthetic.Page()], to: short)

        let pages = try PDFRasterizer.rasterize(original, dpi: 72, using: rasterizer)
        #expect(pages.count == 2)
        #expect(pages.allSatisfy { $0.width == Synthetic.width && $0.height == Synthetic.height })
        #expect(Synthetic.inkPixels(pages[0]) > 500, "the page was drawn")
        let doubled = try PDFRasterizer.rasterize(original, dpi: 144, using: rasterizer)
        #expect(doubled[0].width == 2 * Synthetic.width && doubled[0].height == 2 * Synthetic.height)

        let same = try Comparison.run(expected: original, actual: original, rasterizer: rasterizer, reportDirectory: nil)
        #expect(same.status == .same && same.summary.same == 2)
        #expect(same.pages.map(\.name) == ["page-001.png", "page-002.png"])
        #expect(same.options.rasterizer == rasterizer && same.options.dpi == 72)

        let out = dir.appendingPathComponent("report")
        let changed = try Comparison.run(expected: original, actual: modified, rasterizer: rasterizer, reportDirectory: out)
        #expect(changed.status == .differs)
        #expect(changed.pages.map(\.status) == [.same, .differs])
        #expect(changed.pages[1].boundingBox == Synthetic.panel)
        #expect(changed.pages[1].expected?.hasSuffix("book.pdf page 2") == true)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("diff/page-002.png").path))

        let counted = try Comparison.run(expected: original, actual: short, rasterizer: rasterizer, reportDirectory: nil)
        #expect(counted.status == .error)
        #expect(counted.findings.contains { $0.contains("page count differs") && $0.contains("2 pages") })
        #expect(counted.pages.map(\.status) == [.same, .missingActual])
    }

    @Test func bothRasterizersAgreeClosely() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        Synthetic.writePDF([Synthetic.Page()], to: pdf)
        let splash = try PDFRasterizer.rasterize(pdf, dpi: 100, using: .pdftoppm)
        let cairo = try PDFRasterizer.rasterize(pdf, dpi: 100, using: .cairo)
        #expect(splash[0].size == cairo[0].size)
        // Two rasterizers anti-alias differently, but the filled panel is identical in both.
        let diff = PageComparer.compare(expected: splash[0], actual: cairo[0], options: .init(threshold: 0.2))
        #expect(diff.ratio < 0.01, "\(diff.differingPixels) pixels differ between pdftoppm and cairo")
    }

    @Test func pagesInMemoryPairWithAFolder() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let refs = try Self.folder([Synthetic.Page(), Synthetic.Page()], in: dir, named: "refs")
        let rendered = PageSource(images: [("page-001.png", Synthetic.render()),
                                           ("page-002.png", Synthetic.render(.init(fill: Synthetic.blue)))])
        let out = dir.appendingPathComponent("failures")
        let report = try Comparison.compare(expected: try PageSource.folder(refs), actual: rendered, reportDirectory: out)
        #expect(report.pages.map(\.status) == [.same, .differs])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("diff/page-002.png").path))
    }

    @Test func aStaleDiffImageIsRemovedByTheNextRun() throws {
        let dir = try temporaryDirectory("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.folder([Synthetic.Page()], in: dir, named: "a")
        let b = try Self.folder([Synthetic.Page(fill: Synthetic.blue)], in: dir, named: "b")
        let out = dir.appendingPathComponent("report")
        _ = try Comparison.run(expected: a, actual: b, reportDirectory: out)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("diff/page-001.png").path))
        _ = try Comparison.run(expected: a, actual: a, reportDirectory: out)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("diff/page-001.png").path))
    }
}
