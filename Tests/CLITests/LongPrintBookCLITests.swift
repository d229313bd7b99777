import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// A memoir long enough for KDP's widest gutter, through the command line as an author exports it.
@Suite struct LongPrintBookCLITests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    /// Past 700 pages KDP wants 0.875 in at the binding edge and 0.375 in outside; a book set with
    /// margins narrower than both is widened until its justified lines' ink, not just their box,
    /// keeps them: the export is written and the PDF preflight passes it.
    @Test func aMemoirInKDPsWidestGutterBracketExportsAndPasses() throws {
        let dir = try temporaryDirectory("kdp-800")
        let file = try writeLongMemoir(in: dir, chapters: 40, paragraphs: 75,
                                       margins: ["top": "0.75in", "bottom": "0.8in", "inner": "0.6in", "outer": "0.375in"])
        let pdf = dir.appendingPathComponent("kdp.pdf")
        let export = try bookrender(["export", file.path, "-o", pdf.path, "--profile", "kdp"])
        try #require(export.status == 0, "\(export.stderr.suffix(600))")
        let pages = Int(try PDFReaders.info(pdf)["Pages"] ?? "") ?? 0
        #expect((701...828).contains(pages), "\(pages) pages: the book should fall in KDP's 0.875 in bracket")
        let preflight = try bookrender(["preflight", pdf.path, "--profile", "kdp", "--json"])
        let report = try JSONDecoder().decode(PreflightReport.self, from: Data(preflight.stdout.utf8))
        #expect(preflight.status == 0 && report.passed, "\(report.findings.prefix(3))")
    }
}
