import ArgumentParser
import Foundation
import BookRenderKit

struct Cover: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Render the printed cover: back, spine and front on one sheet, spine width from the interior's page count.",
        discussion: ExitCodes.pointer)

    @Argument(help: "The book.")
    var book: String

    @Option(name: .shortAndLong, help: "The cover PDF to write.")
    var output: String

    @Option(name: .long, help: "Print profile with a spine rule, such as kdp; one without says so.")
    var profile: String

    @Option(name: .long, help: "Paper: white, cream or color, or another the profile's spine rule names (sets the spine width per page).")
    var paper: String = "white"

    @Option(name: .long, help: "paperback, or hardcover: a case-bound cover, wider by its wrap, over the printer's hardcover spine (lulu).")
    var binding: String = "paperback"

    @Option(name: .long, help: "Also write the sheet as a PNG into this folder.")
    var png: String?

    @Option(name: .long, help: "PNG resolution in dots per inch (with --png; default 72).")
    var dpi: Double?

    @Option(name: .long, help: "Use this theme instead of the book's own.")
    var theme: String?

    @OptionGroup(title: "Limits") var limits: LimitFlags

    @Flag(name: .long, help: "Replace a cover PDF or PNG that is a read-only file; write the cover even when preflight finds errors in it.")
    var force = false

    @Option(name: .long, help: "Write the result as JSON to this file, - for stdout.")
    var report: String?

    @OptionGroup var jsonFlags: JSONFlags

    func validate() throws {
        guard output.lowercased().hasSuffix(".pdf") else { throw ValidationError("--output must name a .pdf file") }
        if let dpi {
            guard png != nil else { throw ValidationError("--dpi sets the PNG resolution, and no PNG is written: add --png DIR, or leave --dpi out") }
            guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
        }
        guard CoverBinding(rawValue: binding) != nil else { throw ValidationError("--binding must be paperback or hardcover") }
        if report == "-", jsonFlags.json { throw ValidationError("--json and --report - both print the result on stdout; give one") }
    }

    func run() throws {
        let result = ResultOutput(command: "cover", json: jsonFlags.json, report: report)
        do throws(BookRenderError) {
            let document = try BookDocument.open(URL(fileURLWithPath: book), settings: RenderSettings(theme: theme, profile: profile, limits: limits.limits))
            let r = try document.cover(CoverOptions(pdf: URL(fileURLWithPath: output), paper: paper, binding: CoverBinding(rawValue: binding)!,
                                                    png: png.map { URL(fileURLWithPath: $0) }, dpi: dpi ?? 72, force: force,
                                                    report: result.reportFile))
            for warning in document.loadWarnings { Console.error(warning.description) }
            for finding in r.findings { Console.error("preflight \(finding)") }
            Console.error(String(format: "wrote %@: %.3f × %.3f in sheet (%.3f × %.3f in with its %@), spine %.4f in for %d interior pages on %@ paper%@",
                                 output, r.sheetWidthInches, r.sheetHeightInches, r.mediaWidthInches, r.mediaHeightInches,
                                 r.binding == .hardcover ? "wrap" : "bleed", r.spineInches, r.interiorPages,
                                 paper, r.spineText ? ", with spine text" : ", too thin for spine text"))
            var body = r
            body.findings = document.loadWarnings + r.findings
            try result.emit(body)
        } catch {
            throw result.fail(error)
        }
    }
}
