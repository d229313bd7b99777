import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// Trims and page counts through the command line: a print file is a whole book in a size the
/// printer makes, and the PDF preflight checks both from the file alone.
@Suite struct PrintGeometryCLITests {
    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }
    func sample(_ name: String) -> String { Repository.samples.appendingPathComponent("\(name)/book.json").path }
    func corpus(_ name: String) -> String {
        Repository.root.appendingPathComponent("Tests/PrintRuleBooks/\(name)/book.json").path
    }
    func report(_ r: ToolResult) throws -> PreflightReport {
        try JSONDecoder().decode(PreflightReport.self, from: Data(r.stdout.utf8))
    }

    /// Some pages finished for a printer would pass there for the whole book: refused before
    /// anything is written, saying what to do instead. A proof of some pages is fine.
    @Test func somePagesForAPrinterAreRefused() throws {
        let dir = try temporaryDirectory("pages-profile")
        for profile in ["kdp", "lulu", "ingramspark"] {
            let out = dir.appendingPathComponent("\(profile).pdf").path
            let r = try bookrender(["export", sample("memoir"), "-o", out, "--profile", profile, "--pages", "3-7", "--force"])
            #expect(r.status == 64, "\(profile): \(r.stderr)")
            #expect(r.stderr.contains("--pages 3-7") && r.stderr.contains("whole book") && r.stderr.contains("--profile proof"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let proof = dir.appendingPathComponent("proof.pdf").path
        let r = try bookrender(["export", sample("memoir"), "-o", proof, "--profile", "proof", "--pages", "3-7"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDFReaders.boxes(URL(fileURLWithPath: proof)).count == 5)
    }

    /// A trim the printer does not make stops the export (nothing written) and is named, with the
    /// nearest size, by both preflights; the PDF's from its TrimBox.
    @Test func aTrimThePrinterDoesNotMakeIsRefused() throws {
        let dir = try temporaryDirectory("trim-13")
        let out = dir.appendingPathComponent("big.pdf").path
        let refused = try bookrender(["export", corpus("kdp-trim-13x13"), "-o", out, "--profile", "kdp"])
        #expect(refused.status == 1 && refused.stderr.contains("trimSize") && refused.stderr.contains("8.5 × 11.69 in"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let book = try report(try bookrender(["preflight", corpus("kdp-trim-13x13"), "--profile", "kdp", "--json"]))
        #expect(book.findings.filter { $0.severity == .error }.map(\.kind) == ["trimSize"], "\(book.findings)")

        #expect(try bookrender(["export", corpus("kdp-trim-13x13"), "-o", out, "--profile", "kdp", "--force"]).status == 0)
        let checked = try bookrender(["preflight", out, "--profile", "kdp", "--json"])
        #expect(checked.status == 1)
        let pdf = try report(checked)
        let trim = pdf.findings.filter { $0.kind == "trimSize" }
        #expect(trim.count == 1 && trim.first?.pages == [1] && trim.first?.message.contains("13 × 13 in") == true, "\(pdf.findings)")
        // IngramSpark names its own nearest size (A4, just nearer than 8.5 × 11 in).
        let ingram = try report(try bookrender(["preflight", out, "--profile", "ingramspark", "--json"]))
        #expect(ingram.findings.contains { $0.kind == "trimSize" && $0.message.contains("8.268 × 11.693 in") }, "\(ingram.findings)")
    }

    /// The corpus book that asks for folios 0.2 in from the trim: its plain PDF is caught by the
    /// PDF preflight, its kdp PDF passes it.
    @Test func foliosTheBookPutsInTheMarginAreMovedForThePrinter() throws {
        let dir = try temporaryDirectory("folio-margin")
        let plain = dir.appendingPathComponent("plain.pdf").path, kdp = dir.appendingPathComponent("kdp.pdf").path
        #expect(try bookrender(["export", corpus("kdp-folio-in-margin"), "-o", plain]).status == 0)
        let caught = try report(try bookrender(["preflight", plain, "--profile", "kdp", "--json"]))
        #expect(caught.findings.contains { $0.kind == "outsideSafeArea" }, "\(caught.findings)")
        #expect(try bookrender(["export", corpus("kdp-folio-in-margin"), "-o", kdp, "--profile", "kdp"]).status == 0)
        let passed = try bookrender(["preflight", kdp, "--profile", "kdp", "--json"])
        #expect(passed.status == 0, "\(passed.stdout)")
    }

    /// A PDF of some pages (made without a profile) fails the printers' page rules: too few, and odd.
    @Test func pdfPreflightChecksThePageCountRules() throws {
        let dir = try temporaryDirectory("pdf-pages")
        let out = dir.appendingPathComponent("three.pdf").path
        #expect(try bookrender(["export", sample("memoir"), "-o", out, "--pages", "1-3"]).status == 0)
        for profile in ["kdp", "lulu", "ingramspark"] {
            let r = try bookrender(["preflight", out, "--profile", profile, "--json"])
            #expect(r.status == 1)
            let counts = try report(r).findings.filter { $0.kind == "pageCount" }.map(\.message)
            #expect(counts.contains { $0.contains("at least") } && counts.contains { $0.contains("even") }, "\(profile): \(counts)")
        }
        // The short corpus book, padded to even, is still too short for IngramSpark, in the book and the PDF.
        let short = dir.appendingPathComponent("short.pdf").path
        let refused = try bookrender(["export", corpus("ingramspark-odd-or-short-page-count"), "-o", short, "--profile", "ingramspark"])
        #expect(refused.status == 1 && refused.stderr.contains("pageCount"), "\(refused.stderr)")
        #expect(try bookrender(["export", corpus("ingramspark-odd-or-short-page-count"), "-o", short, "--profile", "ingramspark", "--force"]).status == 0)
        let counts = try report(try bookrender(["preflight", short, "--profile", "ingramspark", "--json"])).findings.filter { $0.kind == "pageCount" }
        #expect(counts.count == 1 && counts[0].message.contains("at least 18"), "\(counts)")
    }

    /// Past 150 pages KDP wants a half-inch gutter: text 0.4 in from the binding edge of a plain
    /// export is caught by the PDF preflight on the binding side of each page (the right of a
    /// left-hand page, the left of a right-hand one); the same book exported for KDP passes.
    @Test func pdfPreflightHoldsTheBindingSideToTheGutterTable() throws {
        let dir = try temporaryDirectory("gutter")
        let entry: [String: Any] = ["type": "text", "text": "The lamp on the point was lit at dusk and kept burning until the boats were home, and nobody on the island could remember a night it had failed."]
        let book: [String: Any] = ["schema": 1, "kind": "memoir", "title": "Gutter", "author": "A. Writer",
                                   "format": ["trim": "6x9", "margins": ["top": "0.5in", "bottom": "1in", "inner": "0.4in", "outer": "0.5in"]],
                                   "pages": Array(repeating: entry, count: 160)]
        let file = dir.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: book).write(to: file)
        let plain = dir.appendingPathComponent("plain.pdf").path
        #expect(try bookrender(["export", file.path, "-o", plain]).status == 0)
        let found = try report(try bookrender(["preflight", plain, "--profile", "kdp", "--json"])).findings.filter { $0.kind == "outsideSafeArea" }
        let left = found.first { $0.pages == [2] }, right = found.first { $0.pages == [3] }
        #expect(left?.message.contains("right trim edge") == true && left?.message.contains("wants 0.50 in") == true, "\(found.prefix(3))")
        #expect(right?.message.contains("left trim edge") == true && right?.message.contains("wants 0.50 in") == true, "\(found.prefix(3))")

        let kdp = dir.appendingPathComponent("kdp.pdf").path
        #expect(try bookrender(["export", file.path, "-o", kdp, "--profile", "kdp"]).status == 0)
        let passed = try report(try bookrender(["preflight", kdp, "--profile", "kdp", "--json"]))
        #expect(passed.findings.filter { $0.kind == "outsideSafeArea" }.isEmpty, "\(passed.findings.prefix(3))")
    }
}
