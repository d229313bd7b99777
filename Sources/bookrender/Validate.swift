import ArgumentParser
import Foundation
import BookModel
import BookResolve

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a book without rendering: JSON, schema, images (every problem is listed).")

    @Argument(help: "The book to check.")
    var book: String

    @Flag(name: .long, help: "Treat missing images and placeholders as errors.")
    var strict = false

    func run() throws {
        do {
            let pipeline = Pipeline(strict: strict)
            let loaded = try pipeline.load(book)
            for w in loaded.warnings { Console.error("warning: \(w)") }
            let (resolved, _) = try pipeline.resolve(loaded)
            for f in resolved.findings { Console.error(f.description) }
            Console.out("\(book): valid \(loaded.source) book, \(resolved.pages.count) entries in pages, theme \(resolved.themeName)")
        } catch {
            throw Exit.fail(error)
        }
    }
}
