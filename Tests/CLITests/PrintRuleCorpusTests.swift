import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// The printers' rules, one small book per rule under Tests/PrintRuleBooks/, each with an
/// `expect.json` saying what a printer would reject, checked through the built program:
/// preflight must name it, a print export must refuse it unless forced, and a compliant book must
/// go through export and the PDF preflight of its own output.
@Suite struct PrintRuleCorpusTests {
    struct Expectation: Decodable, Sendable {
        struct Finding: Decodable, Sendable, CustomStringConvertible {
            var severity: String
            var kind: String
            var page: Int?
            var description: String { "\(severity) \(kind)" + (page.map { " on page \($0)" } ?? "") }
        }
        var profile: String
        var command: String?
        var findings: [Finding]
        var pdf: Bool?
        var compliant: Bool { findings.isEmpty }
        var hasErrors: Bool { findings.contains { $0.severity == "error" } }
    }

    static let root = Repository.root.appendingPathComponent("Tests/PrintRuleBooks")

    /// Every folder of the corpus (a file beside them, such as a script that draws pictures, is not one).
    static let folders: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { name in
            var isDir: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDir) && isDir.boolValue
        }.sorted()
    }()

    /// The folders whose exported PDF is checked too: compliant books, and rules marked `pdf`
    /// (a folder whose expectations cannot be read is kept, so that its test says why).
    static let pdfFolders: [String] = folders.filter { folder in
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("\(folder)/expect.json").path),
              let e = try? JSONDecoder().decode(Expectation.self, from: data) else { return true }
        return e.compliant || e.pdf == true
    }

    func bookrender(_ args: [String]) throws -> ToolResult { try run(try Repository.binary.path, args) }

    func expectation(_ folder: String) throws -> Expectation {
        let file = Self.root.appendingPathComponent("\(folder)/expect.json")
        do {
            return try JSONDecoder().decode(Expectation.self, from: try Data(contentsOf: file))
        } catch {
            throw ToolError("\(folder)/expect.json cannot be read: \(error)")
        }
    }

    func book(_ folder: String) -> String { Self.root.appendingPathComponent("\(folder)/book.json").path }

    func decodeReport(_ r: ToolResult, _ what: String) throws -> PreflightReport {
        do {
            return try JSONDecoder().decode(PreflightReport.self, from: r.stdoutData)
        } catch {
            throw ToolError("\(what): preflight --json printed no report (exit \(r.status)): \(r.stdout)\(r.stderr)")
        }
    }

    func listing(_ findings: [Diagnostic]) -> String {
        findings.isEmpty ? "nothing" : findings.map { "\($0.severity.rawValue) \($0.kind) pages \($0.pages): \($0.message)" }.joined(separator: "; ")
    }

    /// Whether a reported finding is the expected one: same severity and kind, on the page when one is given.
    func matches(_ d: Diagnostic, _ e: Expectation.Finding, checkSeverity: Bool = true) -> Bool {
        (!checkSeverity || d.severity.rawValue == e.severity) && d.kind == e.kind && (e.page.map { d.pages.contains($0) } ?? true)
    }

    /// A cover sheet is preflighted as one (`--cover`): one page, as wide as back, spine and front.
    func coverFlag(_ e: Expectation) -> [String] { e.command == "cover" ? ["--cover"] : [] }

    /// The program's export or cover command for the folder's profile, into `out`.
    func write(_ folder: String, _ e: Expectation, to out: URL, force: Bool) throws -> ToolResult {
        let command = e.command ?? "export"
        return try bookrender([command, book(folder), "-o", out.path, "--profile", e.profile] + (force ? ["--force"] : []))
    }

    @Test func everyFolderIsARuleWithItsExpectations() throws {
        #expect(Self.folders.count >= 3, "no rule books under \(Self.root.path)")
        for folder in Self.folders {
            let dir = Self.root.appendingPathComponent(folder)
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("book.json").path), "\(folder): no book.json")
            let e = try expectation(folder)
            #expect(["export", "cover"].contains(e.command ?? "export"), "\(folder): command \"\(e.command ?? "")\" is neither export nor cover")
            #expect(["kdp", "lulu", "ingramspark", "proof", "screen"].contains(e.profile), "\(folder): unknown profile \(e.profile)")
            for f in e.findings {
                #expect(["error", "warning"].contains(f.severity), "\(folder): severity \(f.severity) for \(f.kind)")
            }
        }
        for profile in ["kdp", "lulu", "ingramspark"] {
            #expect(Self.folders.contains("\(profile)-compliant"), "no compliant book for \(profile)")
        }
    }

    @Test(arguments: folders)
    func preflightNamesEveryBrokenRule(_ folder: String) throws {
        let e = try expectation(folder)
        let r = try bookrender(["preflight", book(folder), "--profile", e.profile, "--json"] + coverFlag(e))
        let report = try decodeReport(r, folder)
        let found = report.findings
        for expected in e.findings {
            #expect(found.contains { matches($0, expected) },
                    "\(folder): expected \(expected) from preflight --profile \(e.profile); found \(listing(found))")
        }
        if e.compliant {
            #expect(r.status == 0 && report.passed,
                    "\(folder): a compliant book must pass preflight --profile \(e.profile) (exit \(r.status)); found \(listing(found))")
        } else {
            let status: Int32 = e.hasErrors ? 1 : 0
            #expect(r.status == status, "\(folder): preflight exit \(r.status), expected \(status); found \(listing(found))")
        }
    }

    @Test(arguments: folders)
    func printExportRefusesErrorsUnlessForced(_ folder: String) throws {
        let e = try expectation(folder)
        let command = e.command ?? "export"
        let dir = try temporaryDirectory("rule-\(folder)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf")

        let plain = try write(folder, e, to: out, force: false)
        if e.hasErrors {
            #expect(plain.status == 1, "\(folder): \(command) --profile \(e.profile) without --force exited \(plain.status), expected 1 (refused): \(plain.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            #expect(left.isEmpty, "\(folder): a refused \(command) left \(left)")
            #expect(plain.stderr.contains("--force"), "\(folder): the refusal should say how to write the file anyway: \(plain.stderr)")
            let forced = try write(folder, e, to: out, force: true)
            #expect(forced.status == 0, "\(folder): \(command) --profile \(e.profile) --force exited \(forced.status), expected 0: \(forced.stderr)")
            #expect(FileManager.default.fileExists(atPath: out.path), "\(folder): --force wrote no file")
        } else {
            #expect(plain.status == 0, "\(folder): \(command) --profile \(e.profile) exited \(plain.status), expected 0: \(plain.stderr)")
            #expect(FileManager.default.fileExists(atPath: out.path), "\(folder): \(command) wrote no file")
        }
    }

    /// What the book preflight finds, the PDF preflight finds in the exported file: a compliant book's
    /// PDF passes, and a rule marked `pdf` is named in the forced PDF on the same page.
    @Test(arguments: pdfFolders)
    func pdfPreflightAgreesWithTheBook(_ folder: String) throws {
        let e = try expectation(folder)
        let dir = try temporaryDirectory("rule-pdf-\(folder)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.pdf")
        let w = try write(folder, e, to: out, force: !e.compliant)
        try #require(w.status == 0, "\(folder): \(e.command ?? "export") --profile \(e.profile) exited \(w.status): \(w.stderr)")

        // A cover PDF is checked against the interior it wraps: the page count the cover was made for.
        var sheet: [String] = []
        if e.command == "cover" {
            let pages = try #require(CoverSheetTests.interiorPages(w.stderr), "\(folder): \(w.stderr)")
            sheet = ["--cover", "--pages", "\(pages)"]
        }
        let r = try bookrender(["preflight", out.path, "--profile", e.profile, "--json"] + sheet)
        let report = try decodeReport(r, "\(folder) (PDF)")
        if e.compliant {
            #expect(r.status == 0 && report.passed,
                    "\(folder): the exported PDF must pass preflight --profile \(e.profile) (exit \(r.status)); found \(listing(report.findings))")
            // And by the printer's own number, measured by Ghostscript rather than by our preflight.
            if (e.command ?? "export") == "export", let safety = PrinterRules.interiorSafety[e.profile] {
                let (problems, inked) = try PrinterRules.textOutsideSafeZone(out, safety: safety)
                #expect(problems.isEmpty, "\(folder): text outside \(e.profile)'s safe zone: \(problems)")
                #expect(inked > 0, "\(folder): Ghostscript drew no text")
            }
        } else {
            // The PDF may judge severity on its own terms (it cannot see the book); kind and page must agree.
            for expected in e.findings {
                #expect(report.findings.contains { matches($0, expected, checkSeverity: false) },
                        "\(folder): expected \(expected.kind)\(expected.page.map { " on page \($0)" } ?? "") from preflight of the exported PDF; found \(listing(report.findings))")
            }
        }
    }
}
