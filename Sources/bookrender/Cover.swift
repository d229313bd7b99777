import ArgumentParser
import Foundation
import BookRenderKit

struct Cover: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Render the printed cover: back, spine and front on one sheet, spine width from the interior's page count.")

    @Argument(help: "The book.")
    var book: String

    @Option(name: .shortAndLong, help: "The cover PDF to write.")
    var output: String

    @Option(name: .long, help: "Print profile with a spine rule, such as kdp; one without says so.")
    var profile: String

    @Option(name: .long, help: "Paper: white, cream or color, or another the profile's spine rule names (sets the spine width per page).")
    var paper: String = "white"

    @Option(name: .long, help: "Also write the sheet as a PNG into this folder.")
    var png: String?

    @Option(name: .long, help: "PNG resolution in dots per inch.")
    var dpi: Double = 72

    @Option(name: .long, help: "Use this theme instead of the book's own.")
    var theme: String?

    @OptionGroup(title: "Limits") var limits: LimitFlags

    @Flag(name: .long, help: "Replace a cover PDF or PNG that is a read-only file; write the cover even when preflight finds errors in it.")
    var force = false

    func validate() throws {
        guard output.lowercased().hasSuffix(".pdf") else { throw ValidationError("--output must name a .pdf file") }
        guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
    }

    func run() throws {
        do throws(BookRenderError) {
            let document = try BookDocument.open(URL(fileURLWithPath: book), settings: RenderSettings(theme: theme, profile: profile, limits: limits.limits))
            let r = try document.cover(CoverOptions(pdf: URL(fileURLWithPath: output), paper: paper,
                                                    png: png.map { URL(fileURLWithPath: $0) }, dpi: dpi, force: force))
            for finding in r.findings { Console.error("preflight \(finding)") }
            Console.error(String(format: "wrote %@: %.3f × %.3f in sheet, spine %.4f in for %d interior pages on %@ paper%@",
                                 output, r.sheetWidthInches, r.sheetHeightInches, r.spineInches, r.interiorPages,
                                 paper, r.spineText ? ", with spine text" : ", too thin for spine text"))
        } catch {
            throw Exit.fail(error)
        }
    }
}
