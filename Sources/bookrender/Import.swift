import ArgumentParser
import Foundation
import BookRenderKit

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a \(SourceFormat.appNames) file into bookrender's book.json.")

    @Argument(help: "The app's saved file.")
    var input: String

    @Option(name: .shortAndLong, help: "The book.json to write.")
    var output: String

    @Flag(name: .long, help: "Replace the output book.json if it exists (images are never replaced).")
    var force = false

    @Flag(name: .long, help: "Write inline images as files in images/ beside the output instead of keeping them inline.")
    var extractImages = false

    func run() throws {
        do throws(BookRenderError) {
            let document = try BookDocument.open(URL(fileURLWithPath: input), settings: RenderSettings(workers: 1))
            try document.writeBookJSON(to: URL(fileURLWithPath: output), extractImages: extractImages, replace: force)
            Console.error("imported \(document.source) file \(input) → \(output) (\(document.book.pages.count) entries in pages)")
        } catch {
            throw Exit.fail(error)
        }
    }
}
