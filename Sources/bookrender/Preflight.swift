import ArgumentParser
import Foundation
import BookRenderKit

struct Preflight: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "Check a book or a PDF against a printer's profile: resolution, safe area, bleed, placeholders, page count, fonts, size.",
        discussion: "Exit codes: 0 no errors (warnings may be listed), 1 errors found, 64 bad command line, 65/66 the input is invalid or unreadable. See `bookrender --help`.")

    @Argument(help: "A book (book.json or an app file) or a PDF.")
    var input: String

    @Option(name: .long, help: "Print profile: a file's name in templates/profiles, such as kdp; an unknown name lists them.")
    var profile: String

    @OptionGroup var jsonFlags: JSONFlags

    @Flag(name: .long, help: "Check the printed cover sheet: for a book, as `bookrender cover` lays it out; for a PDF, a one-page cover (no page-count rule).")
    var cover = false

    @Option(name: .long, help: "With --cover and a book: the paper, which sets the spine width (default white).")
    var paper: String?

    func validate() throws {
        if paper != nil, !cover { throw ValidationError("--paper sets the cover's spine width: add --cover, or leave --paper out") }
    }

    func run() throws {
        let result = ResultOutput(command: "preflight", json: jsonFlags.json)
        let paper = self.paper ?? "white"
        let report: PreflightReport
        do throws(BookRenderError) {
            let url = URL(fileURLWithPath: input)
            if input.lowercased().hasSuffix(".pdf") {
                report = try PDFCheck.preflight(url, profile: profile, coverSheet: cover)
            } else {
                let document = try BookDocument.open(url, settings: RenderSettings(profile: profile))
                report = cover ? try document.preflightCover(profile: profile, paper: paper) : try document.preflight(profile: profile)
            }
        } catch {
            throw result.fail(error)
        }
        if result.json {
            try? result.emit(PreflightReport(profile: report.profile, input: input, findings: report.findings))
        } else {
            report.findings.forEach { Console.out($0.description) }
            Console.out("\(input): \(report.errors) error(s), \(report.findings.count - report.errors) warning(s) for \(profile)")
        }
        if !report.passed { throw ExitCode(1) }
    }
}
