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

    @Flag(name: .long, help: "Check the printed cover sheet: for a book, as `bookrender cover` lays it out; for a PDF, a one-page cover sheet checked against the spine its interior makes (give --pages or --interior).")
    var cover = false

    @Option(name: .long, help: "With --cover: the paper, which sets the spine width (default white).")
    var paper: String?

    @Option(name: .long, help: "paperback (default) or hardcover (case-bound): the page counts the printer binds; with --cover of a book, the sheet laid out as `bookrender cover --binding` does.")
    var binding: String?

    @Option(name: .long, help: "With --cover and a cover PDF: the interior's page count, which sets the spine width.")
    var pages: Int?

    @Option(name: .long, help: "With --cover and a cover PDF: the interior PDF, whose page count and trim the sheet must fit.")
    var interior: String?

    @Option(name: .long, help: "With --cover --pages: the interior's trim in inches (\"6x9\"); without it the sheet's panels must be a trim the printer lists.")
    var trim: String?

    var isPDF: Bool { input.lowercased().hasSuffix(".pdf") }

    func validate() throws {
        if let binding, CoverBinding(rawValue: binding) == nil { throw ValidationError("--binding must be paperback or hardcover") }
        if binding == "hardcover", cover, isPDF {
            throw ValidationError("a hardcover's cover PDF is not checked here yet: check the book with --cover --binding hardcover, or the interior without --cover")
        }
        if paper != nil, !cover { throw ValidationError("--paper sets the cover's spine width: add --cover, or leave --paper out") }
        for (flag, given) in [("--pages", pages != nil), ("--interior", interior != nil), ("--trim", trim != nil)] where given {
            guard cover, isPDF else {
                throw ValidationError("\(flag) describes the interior a cover PDF wraps: use it with --cover and a PDF (a book knows its own pages)")
            }
        }
        if pages != nil, interior != nil { throw ValidationError("--pages and --interior both give the page count: give one") }
        if trim != nil, interior != nil { throw ValidationError("--interior gives the trim: leave --trim out") }
        if let pages, pages < 1 { throw ValidationError("--pages \(pages): give the interior's page count, 1 or more") }
        if cover, isPDF, pages == nil, interior == nil {
            throw ValidationError("a cover PDF is checked against the interior it wraps: give --pages N (the interior's page count) or --interior INTERIOR.pdf")
        }
    }

    func run() throws {
        let result = ResultOutput(command: "preflight", json: jsonFlags.json)
        let paper = self.paper ?? "white"
        let bound = binding.flatMap(CoverBinding.init(rawValue:)) ?? .paperback
        let report: PreflightReport
        do throws(BookRenderError) {
            let url = URL(fileURLWithPath: input)
            if isPDF {
                let check = cover ? CoverCheck(pages: pages, interior: interior.map { URL(fileURLWithPath: $0) }, trim: trim, paper: paper) : nil
                report = try PDFCheck.preflight(url, profile: profile, cover: check, settings: RenderSettings(binding: bound))
            } else {
                let document = try BookDocument.open(url, settings: RenderSettings(profile: profile, binding: bound))
                report = cover ? try document.preflightCover(profile: profile, paper: paper, binding: bound) : try document.preflight(profile: profile)
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
