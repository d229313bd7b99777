import Foundation
import Testing
import BookTestSupport

/// `export --epub`: every sample passes the reference checker, reads as text, and looks in a real
/// browser engine like its PNG pages.
@Suite struct EPUBTests {
    static let samples = ["storybook/book.json", "memoir/book.json", "apps/memoirai/storybook.json",
                          "apps/roger/story.json", "apps/infinitestories/story.json"]

    func export(_ book: URL, _ extra: [String] = [], to epub: URL) throws -> ToolResult {
        try run(try Repository.binary.path, ["export", book.path, "--epub", epub.path] + extra)
    }

    @Test(arguments: samples)
    func everySamplePassesEpubcheck(_ sample: String) throws {
        let dir = try temporaryDirectory("epub")
        defer { try? FileManager.default.removeItem(at: dir) }
        let epub = dir.appendingPathComponent("book.epub")
        let r = try export(Repository.samples.appendingPathComponent(sample), to: epub)
        #expect(r.status == 0, "\(r.stderr)")
        let check = try EPUBReaders.epubcheck(epub)
        #expect(check.passed, "\(check.messages.joined(separator: "\n"))")
    }

    /// The memoir's text is in the e-book as text, in reading order, a word broken by layout
    /// whole again, where search and a screen reader find it.
    @Test func theTextIsRealTextInReadingOrder() throws {
        let dir = try temporaryDirectory("epub")
        defer { try? FileManager.default.removeItem(at: dir) }
        let epub = dir.appendingPathComponent("memoir.epub")
        let r = try export(Repository.samples.appendingPathComponent("memoir/book.json"), to: epub)
        #expect(r.status == 0, "\(r.stderr)")
        let unpacked = try EPUBReaders.unpack(epub)
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let pages = try FileManager.default.contentsOfDirectory(atPath: unpacked.appendingPathComponent("OEBPS").path)
            .filter { $0.hasPrefix("page-") }.sorted()
        let text = try pages.map { try EPUBReaders.text(ofXHTML: Data(contentsOf: unpacked.appendingPathComponent("OEBPS/\($0)"))) }
            .joined(separator: " ")
        #expect(text.contains("I was born in the winter of 1951, in the front bedroom of the house on Linden Street, because the snow was too deep"))
        #expect(text.contains("The Kitchen Table Years"))
        // Layout breaks these words at line ends; the e-book's text keeps each whole.
        let html = try pages.map { try String(contentsOf: unpacked.appendingPathComponent("OEBPS/\($0)"), encoding: .utf8) }.joined()
        #expect(html.contains("class=\"w f"), "words are set in embedded faces")
        #expect(html.contains(" hy\""), "some word is broken at a line end")
        for word in html.components(separatedBy: "hy\"").dropFirst().prefix(5) {
            // The broken word's first part, then (with no space) the next line's first word.
            let first = word.components(separatedBy: ">")[1].components(separatedBy: "<")[0]
            #expect(text.range(of: first + "[a-z]", options: .regularExpression) != nil, "\(first)")
        }
    }

    /// A picture-book page and a memoir page in Chromium's engine at the page's viewport, against
    /// the same pages exported as PNGs at the viewport's resolution (144 dpi). A page of body text
    /// is compared at a quarter of its size: the browser's glyph edges are not cairo's pixel for
    /// pixel, but each word must be where the page has it.
    @Test(arguments: [("storybook/book.json", 4, 100, 0.002), ("memoir/book.json", 16, 25, 0.03)])
    func pagesInABrowserLookLikeThePNGPages(_ sample: String, _ page: Int, _ percent: Int, _ allowed: Double) throws {
        let dir = try temporaryDirectory("epub")
        defer { try? FileManager.default.removeItem(at: dir) }
        let epub = dir.appendingPathComponent("book.epub"), pngs = dir.appendingPathComponent("png")
        let r = try export(Repository.samples.appendingPathComponent(sample), ["--png", pngs.path, "--dpi", "144"], to: epub)
        #expect(r.status == 0, "\(r.stderr)")
        let unpacked = try EPUBReaders.unpack(epub)
        defer { try? FileManager.default.removeItem(at: unpacked) }
        let name = String(format: "page-%03d", page)
        let xhtml = unpacked.appendingPathComponent("OEBPS/\(name).xhtml")
        let document = try String(contentsOf: xhtml, encoding: .utf8)
        let viewport = try #require(document.firstMatch(of: /width=(\d+), height=(\d+)/))
        let shot = dir.appendingPathComponent("shot.png")
        try EPUBReaders.screenshot(xhtml, width: Int(viewport.1)!, height: Int(viewport.2)!, to: shot)
        func sized(_ png: URL, _ as: String) throws -> URL {
            let out = dir.appendingPathComponent("\(`as`)/\(name).png")
            try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
            let r = try run("convert", [png.path, "-filter", "Box", "-resize", "\(percent)%", out.path])
            guard r.status == 0 else { throw ToolError("convert \(png.path): \(r.stderr)") }
            return out
        }
        let expected = try sized(pngs.appendingPathComponent("\(name).png"), "expected")
        let compared = try run(try Repository.binary.path, ["compare", expected.path, try sized(shot, "browser").path,
                                                            "--max-diff-ratio", "\(allowed)", "--out", dir.appendingPathComponent("report").path])
        #expect(compared.status == 0, "\(compared.stdout)\(compared.stderr)")
        // Without its live text the page's picture is not the page: the text is what is compared.
        let images = unpacked.appendingPathComponent("OEBPS/images")
        let picture = images.appendingPathComponent(try #require(try FileManager.default.contentsOfDirectory(atPath: images.path).first { $0.hasPrefix(name) }))
        let withoutText = try run(try Repository.binary.path, ["compare", expected.path, try sized(picture, "bare").path,
                                                               "--max-diff-ratio", "\(allowed)"])
        #expect(withoutText.status == 1, "the page's picture alone matched the page: its text is not live: \(withoutText.stdout)")
    }
}
