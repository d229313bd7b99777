import ArgumentParser
import Foundation
import BookModel

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a MemoirAI, Roger or InfiniteStories file into bookrender's book.json (images stay inline).")

    @Argument(help: "The app's saved file.")
    var input: String

    @Option(name: .shortAndLong, help: "The book.json to write.")
    var output: String

    @Flag(name: .long, help: "Replace the output if it exists.")
    var force = false

    func run() throws {
        do {
            let loaded = try BookLoader.load(contentsOf: URL(fileURLWithPath: input))
            let out = URL(fileURLWithPath: output)
            if FileManager.default.fileExists(atPath: out.path) && !force {
                throw OutputError(message: "\(output) exists; pass --force to replace it")
            }
            let data = try BookExporter.encode(loaded.book)
            do {
                try data.write(to: out, options: .atomic)
            } catch {
                throw OutputError(message: "cannot write \(output): \(error.localizedDescription)")
            }
            Console.error("imported \(loaded.source) file \(input) → \(output) (\(loaded.book.pages.count) entries in pages)")
        } catch {
            throw Exit.fail(error)
        }
    }
}
