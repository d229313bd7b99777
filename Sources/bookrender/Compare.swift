import ArgumentParser
import Foundation
import BookRenderKit

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare page images (PNG files, folders of PNGs, or PDFs) and report what changed.",
        discussion: """
        Pages are paired by file name (PDF pages are named page-001.png…). Decoded pixels are \
        compared, never PNG bytes: exact match first, then --tolerance, then pixelmatch's YIQ \
        threshold with anti-aliasing detection. With --out, every page that is not the same gets an \
        expected | diff | actual image in OUT/diff/, and OUT/report.json and OUT/index.html \
        describe the run; without it nothing is written. Exit codes: 0 same, 1 differs, 2 error (a missing page, a size or page \
        count mismatch, an unreadable input; a report asked for is still written), 64 bad command line. \
        With --update the exit code is 0 once every page is re-recorded. See `bookrender --help`.
        """)

    @Argument(help: "The reference: a PNG, a folder of PNGs, or a PDF.")
    var expected: String

    @Argument(help: "What to check against it: a PNG, a folder of PNGs, or a PDF.")
    var actual: String

    @Option(name: .long, help: "Folder for the diff images, report.json and index.html (none written without it).")
    var out: String?

    @Option(name: .long, help: "pixelmatch threshold, 0…1: colour differences above it count; smaller is stricter.")
    var threshold: Double = 0.1

    @Option(name: .long, help: "Channel differences up to this (0…255) are equal, before the threshold is applied.")
    var tolerance: Int = 0

    @Option(name: .customLong("max-diff-pixels"), help: "Differing pixels a page may have and still be the same.")
    var maxDiffPixels: Int = 0

    @Option(name: .customLong("max-diff-ratio"), help: "The same as a fraction (0…1) of the page's compared pixels.")
    var maxDiffRatio: Double?

    @Option(name: .customLong("ignore"),
            help: ArgumentHelp("A region not compared: x,y,w,h on every page, or NAME:x,y,w,h on one (repeatable).",
                               valueName: "region"))
    var ignore: [String] = []

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences.")
    var includeAA = false

    @Option(name: .long, help: "Resolution PDF pages are rasterized at (default: the resolution the PNGs they are compared with record, else 72).")
    var dpi: Double?

    @Option(name: .long, help: "Who rasterizes PDFs: pdftoppm (poppler's Splash) or cairo (poppler's pdftocairo).")
    var rasterizer: String = Rasterizer.pdftoppm.rawValue

    @Flag(name: .long, help: "Re-record: copy ACTUAL's changed pages over EXPECTED (PNG files and folders only).")
    var update = false

    @OptionGroup var jsonFlags: JSONFlags

    @Option(name: .long, help: "Also write the JSON report (as --json prints it) to this file, - for stdout.")
    var report: String?

    func validate() throws {
        do {
            try options().validate()
        } catch let error as BookRenderError {
            throw ValidationError(error.message)
        } catch {
            throw ValidationError("\(error)")
        }
        guard Rasterizer(rawValue: rasterizer) != nil else {
            throw ValidationError("--rasterizer must be pdftoppm or cairo, not \(rasterizer)")
        }
        if let dpi, !(dpi.isFinite && dpi > 0 && dpi <= 2400) { throw ValidationError("--dpi must be between 0 and 2400") }
        if report == "-", jsonFlags.json { throw ValidationError("--json and --report - both print the report on stdout; give one") }
    }

    private func options() throws(BookRenderError) -> CompareOptions {
        var regions: [IgnoreRegion] = []
        do {
            for text in ignore { regions.append(try IgnoreRegion(parsing: text)) }
        } catch {
            throw BookRenderError(.invalidOptions, error.message)
        }
        return CompareOptions(threshold: threshold, tolerance: tolerance, maxDiffPixels: maxDiffPixels,
                              maxDiffRatio: maxDiffRatio, ignore: regions, includeAA: includeAA)
    }

    func run() throws {
        let result = ResultOutput(command: "compare", json: jsonFlags.json, report: report)
        let reportURL = out.map { URL(fileURLWithPath: $0) }
        let report: CompareReport
        do throws(BookRenderError) {
            var involved: [ReportTarget.Involved] = [.input(URL(fileURLWithPath: expected), "the expected pages"),
                                                     .input(URL(fileURLWithPath: actual), "the actual pages")]
            if let reportURL { involved.append(.output(reportURL, "the --out folder")) }
            try result.checkReport(against: involved)
            report = try PageComparison.run(expected: URL(fileURLWithPath: expected), actual: URL(fileURLWithPath: actual),
                                            options: try options(), dpi: dpi, rasterizer: Rasterizer(rawValue: rasterizer) ?? .pdftoppm,
                                            reportFolder: reportURL, update: update)
        } catch {
            result.emitFailure(error)
            Console.error("error: \(error.message)")
            throw ExitCode(2)
        }
        do throws(BookRenderError) { try result.emit(CompareResult(report)) } catch {
            Console.error("error: \(error.message)")
            throw ExitCode(2)
        }
        if !result.toStdout { Console.out(report.summaryText(reportDirectory: reportURL)) }
        let code = update ? 0 : report.exitCode
        if code != 0 { throw ExitCode(code) }
    }
}
