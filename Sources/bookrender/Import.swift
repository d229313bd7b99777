import ArgumentParser
import Foundation
import BookRenderKit

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a \(SourceFormat.appNames) file into bookrender's book.json.",
        discussion: ExitCodes.pointer)

    @Argument(help: "The app's saved file.")
    var input: String

    @Option(name: .shortAndLong, help: "The book.json to write.")
    var output: String

    @Flag(name: .long, help: "Replace the output book.json if it exists (images are never replaced).")
    var force = false

    @Flag(name: .long, help: "Write inline images as files in images/ beside the output instead of keeping them inline.")
    var extractImages = false

    @Option(name: .long, help: "Write the result as JSON to this file, - for stdout.")
    var report: String?

    @OptionGroup var jsonFlags: JSONFlags

    func validate() throws {
        if report == "-", jsonFlags.json { throw ValidationError("--json and --report - both print the result on stdout; give one") }
    }

    func run() throws {
        let result = ResultOutput(command: "import", json: jsonFlags.json, report: report)
        do throws(BookRenderError) {
            let document = try BookDocument.open(URL(fileURLWithPath: input), settings: RenderSettings(workers: 1))
            let written = try document.writeBookJSON(to: URL(fileURLWithPath: output), extractImages: extractImages, replace: force,
                                                    report: result.reportFile)
            for warning in document.loadWarnings { Console.error(warning.description) }
            Console.error("imported \(document.source) file \(input) → \(output) (\(document.book.pages.count) entries in pages)")
            try result.emit(ImportResult(input: input, source: "\(document.source)", output: output,
                                         entries: document.book.pages.count, written: written.map(\.path),
                                         findings: document.loadWarnings))
        } catch {
            throw result.fail(error)
        }
    }
}

/// What `import --json` prints.
struct ImportResult: Encodable {
    var input: String
    var source: String
    var output: String
    var entries: Int
    /// Every file written, the book last.
    var written: [String]
    var findings: [Diagnostic]
}
