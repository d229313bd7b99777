import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// PDFs made by hand, not by bookrender (`Tests/PreflightFixtures/make_broken_pdfs.py`), each a
/// good interior or cover with one thing broken: the PDF preflight must name each fault by its
/// kind, pass the good files they were broken from, and pass bookrender's own print files.
@Suite struct HandBrokenPDFTests {
    struct Fixture: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var role: String
        var profile: String
        var args: [String]
        var expect: String?
        var severity: String
        var testDescription: String { file }
    }

    /// The generator runs once per test run; every test reads its folder.
    static let made: Result<(folder: URL, fixtures: [Fixture]), ToolError> = {
        do {
            let folder = try temporaryDirectory("hand-broken")
            let script = Repository.root.appendingPathComponent("Tests/PreflightFixtures/make_broken_pdfs.py")
            let r = try run("python3", [script.path, folder.path])
            guard r.status == 0 else { return .failure(ToolError("make_broken_pdfs.py exited \(r.status): \(r.stderr)")) }
            let manifest = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
            return .success((folder, try JSONDecoder().decode([Fixture].self, from: manifest)))
        } catch {
            return .failure(ToolError("make_broken_pdfs.py: \(error)"))
        }
    }()

    static var fixtures: [Fixture] { (try? made.get().fixtures) ?? [] }

    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    func preflight(_ f: Fixture) throws -> (ToolResult, PreflightReport) {
        let folder = try Self.made.get().folder
        let args = f.args.map { $0.hasSuffix(".pdf") ? folder.appendingPathComponent($0).path : $0 }
        let r = try bookrender(["preflight", folder.appendingPathComponent(f.file).path, "--profile", f.profile, "--json"] + args)
        do {
            return (r, try JSONDecoder().decode(PreflightReport.self, from: r.stdoutData))
        } catch {
            throw ToolError("\(f.file): preflight --json printed no report (exit \(r.status)): \(r.stdout)\(r.stderr)")
        }
    }

    func listing(_ findings: [Diagnostic]) -> String {
        findings.isEmpty ? "nothing" : findings.map { "\($0.severity.rawValue) \($0.kind) pages \($0.pages): \($0.message)" }.joined(separator: "; ")
    }

    @Test func theGeneratorBreaksEnoughInteriorsAndCoversEachOneWay() throws {
        let fixtures = try Self.made.get().fixtures
        let broken = fixtures.filter { $0.expect != nil }
        #expect(broken.filter { $0.role == "interior" }.count >= 21)
        #expect(broken.filter { $0.role == "cover" }.count >= 14)
        #expect(Set(fixtures.map(\.file)).count == fixtures.count, "each file once")
        for profile in ["kdp", "lulu", "ingramspark"] {
            for role in ["interior", "cover"] {
                #expect(fixtures.contains { $0.expect == nil && $0.profile == profile && $0.role == role }, "no good \(role) for \(profile)")
            }
        }
    }

    /// The good files pass with nothing to say: each broken file differs from one of them in one way.
    @Test(arguments: fixtures.filter { $0.expect == nil })
    func aGoodHandMadeFilePasses(_ f: Fixture) throws {
        let (r, report) = try preflight(f)
        #expect(r.status == 0 && report.findings.isEmpty, "\(f.file) for \(f.profile) (exit \(r.status)): \(listing(report.findings))")
    }

    @Test(arguments: fixtures.filter { $0.expect != nil })
    func eachBrokenFileIsCaughtForItsFault(_ f: Fixture) throws {
        let (r, report) = try preflight(f)
        let found = report.findings.filter { $0.kind == f.expect && $0.severity.rawValue == f.severity }
        #expect(!found.isEmpty, "\(f.file): expected \(f.severity) \(f.expect ?? "") from preflight --profile \(f.profile); found \(listing(report.findings))")
        #expect(r.status == (f.severity == "error" ? 1 : 0), "\(f.file): exit \(r.status)")
        // Every finding says where and what to do: a page or the file, and the printer it is for.
        for d in found {
            #expect(d.message.contains(f.profile), "\(f.file): the message names no printer: \(d.message)")
        }
    }

    /// A page whose TrimBox is its MediaBox lacks bleed, not a TrimBox; a page without a TrimBox
    /// lacks the box.
    @Test func aMissingBleedIsNotCalledAMissingTrimBox() throws {
        let fixtures = try Self.made.get().fixtures
        let (_, noBleed) = try preflight(try #require(fixtures.first { $0.file == "interior-kdp-trim-equals-media.pdf" }))
        #expect(noBleed.findings.contains { $0.kind == "bleed" && $0.pages == [1] && $0.message.contains("no bleed")
            && $0.message.contains("0.125 in") && $0.message.contains("outside (right)") }, "\(listing(noBleed.findings))")
        #expect(!noBleed.findings.contains { $0.kind == "missingBoxes" || $0.message.contains("no TrimBox") }, "\(listing(noBleed.findings))")
        let (_, noTrim) = try preflight(try #require(fixtures.first { $0.file == "interior-lulu-no-trim-box.pdf" }))
        #expect(noTrim.findings.contains { $0.kind == "missingBoxes" && $0.pages == [1] && $0.message.contains("no TrimBox")
            && $0.message.contains("31 more pages") }, "\(listing(noTrim.findings))")
    }

    /// bookrender's own books: the memoir sample for each printer, and the corpus's compliant books.
    static let ownBooks: [(String, String)] = ["kdp", "lulu", "ingramspark"].map { ("samples/memoir", $0) }
        + ["kdp", "lulu", "ingramspark"].map { ("Tests/PrintRuleBooks/\($0)-compliant", $0) }

    /// bookrender's own interior and cover for each printer pass the same checks. The memoir's 20
    /// pages are fewer than KDP and Lulu print, so for them it is written with --force and that is
    /// the one finding its PDF may have.
    @Test(arguments: ownBooks)
    func bookrendersOwnPrintFilesPass(_ folder: String, _ printer: String) throws {
        let dir = try temporaryDirectory("own-\(printer)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = Repository.root.appendingPathComponent("\(folder)/book.json").path
        let interior = dir.appendingPathComponent("x.pdf").path, cover = dir.appendingPathComponent("cover.pdf").path
        var e = try bookrender(["export", book, "--profile", printer, "-o", interior])
        if e.status == 1, e.stderr.contains("pageCount"), folder == "samples/memoir" {
            e = try bookrender(["export", book, "--profile", printer, "-o", interior, "--force"])
        }
        try #require(e.status == 0, "\(e.stderr)")
        let c = try bookrender(["cover", book, "--profile", printer, "-o", cover])
        try #require(c.status == 0, "\(c.stderr)")
        let checked = try bookrender(["preflight", interior, "--profile", printer, "--json"])
        let report = try JSONDecoder().decode(PreflightReport.self, from: checked.stdoutData)
        let unexpected = report.findings.filter { !($0.kind == "pageCount" && folder == "samples/memoir") }
        #expect(unexpected.isEmpty, "\(folder) interior for \(printer): \(listing(report.findings))")
        let sheet = try bookrender(["preflight", cover, "--profile", printer, "--cover", "--interior", interior, "--json"])
        let sheetReport = try JSONDecoder().decode(PreflightReport.self, from: sheet.stdoutData)
        // The cover of the short memoir says, as a warning, that the printer will refuse its
        // interior; nothing else may be found on either sheet.
        let onTheSheet = sheetReport.findings.filter { !($0.kind == "pageCount" && $0.severity == .warning && folder == "samples/memoir") }
        #expect(sheet.status == 0 && onTheSheet.isEmpty, "\(folder) cover for \(printer): \(listing(sheetReport.findings))")
        let interiorShort = report.findings.contains { $0.kind == "pageCount" }
        #expect(sheetReport.findings.contains { $0.kind == "pageCount" } == interiorShort,
                "\(folder) cover for \(printer): \(listing(sheetReport.findings))")
    }

    /// A cover PDF is checked against its interior: without a page count the command line is refused.
    @Test func aCoverPDFNeedsItsInteriorsPageCount() throws {
        let folder = try Self.made.get().folder
        let cover = folder.appendingPathComponent("cover-kdp-good.pdf").path
        let r = try bookrender(["preflight", cover, "--profile", "kdp", "--cover"])
        #expect(r.status == 64 && r.stderr.contains("--pages") && r.stderr.contains("--interior"), "\(r.status): \(r.stderr)")
        let both = try bookrender(["preflight", cover, "--profile", "kdp", "--cover", "--pages", "120", "--interior", cover])
        #expect(both.status == 64, "\(both.stderr)")
        let book = Repository.samples.appendingPathComponent("memoir/book.json").path
        let notPDF = try bookrender(["preflight", book, "--profile", "kdp", "--cover", "--pages", "120"])
        #expect(notPDF.status == 64 && notPDF.stderr.contains("--pages"), "\(notPDF.stderr)")
        let paper = try bookrender(["preflight", cover, "--profile", "kdp", "--cover", "--pages", "120", "--paper", "vellum"])
        // As for a book's cover: the profile has no such paper (65), naming those it has.
        #expect(paper.status == 65 && paper.stderr.contains("cream"), "\(paper.stderr)")
    }
}
