import ArgumentParser
import Foundation
import BookRenderKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a book without rendering: JSON, schema, images (every problem is listed).",
        discussion: ExitCodes.pointer)

    @Argument(help: "The book to check.")
    var book: String

    @Flag(name: .long, help: "Treat missing images and placeholders as errors.")
    var strict = false

    @OptionGroup(title: "Limits") var limits: LimitFlags

    @OptionGroup var jsonFlags: JSONFlags

    func run() throws {
        let result = ResultOutput(command: "validate", json: jsonFlags.json)
        do throws(BookRenderError) {
            let report = try BookDocument.open(URL(fileURLWithPath: book), settings: RenderSettings(strict: strict, limits: limits.limits)).validate()
            for d in report.diagnostics { Console.error(d.description) }
            if result.json { try result.emit(report) } else {
                Console.out("\(book): valid \(report.source) book, \(report.entries) entries in pages, theme \(report.theme)")
            }
        } catch {
            throw result.fail(error)
        }
    }
}
