import ArgumentParser
import Foundation
import BookModel

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
        do {
            let loaded = try BookLoader.load(contentsOf: URL(fileURLWithPath: input))
            let out = URL(fileURLWithPath: output)
            if FileManager.default.fileExists(atPath: out.path) && !force {
                throw OutputError(message: "\(output) exists; pass --force to replace it")
            }
            var book = loaded.book
            if extractImages {
                let (extracted, images) = BookExporter.extractingInlineImages(of: book)
                try writeImages(images, beside: out)
                book = extracted
            }
            let data = try BookExporter.encode(book)
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

    /// Writes each image unless the same bytes are already there; a different file of the same name
    /// is the user's and stops the import before anything is written.
    private func writeImages(_ images: [BookExporter.ExtractedImage], beside book: URL) throws {
        let folder = book.deletingLastPathComponent()
        for image in images {
            let url = folder.appendingPathComponent(image.path)
            if let existing = FileManager.default.contents(atPath: url.path), existing != image.data {
                throw OutputError(message: "\(url.path) exists with other content; import into an empty folder or move it away")
            }
        }
        for image in images {
            let url = folder.appendingPathComponent(image.path)
            guard !FileManager.default.fileExists(atPath: url.path) else { continue }
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try image.data.write(to: url, options: .atomic)
            } catch {
                throw OutputError(message: "cannot write \(url.path): \(error.localizedDescription)")
            }
        }
    }
}
