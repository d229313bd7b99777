import ArgumentParser
import Foundation
import BookRenderKit

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a book: a book.json to edit (with its $schema for editors) and an images/ folder.",
        discussion: "An existing book.json is never replaced (exit 73). \(ExitCodes.pointer)")

    @Option(name: .long, help: "storybook (pictures with a line or two each) or memoir (chapters, text and photos).")
    var kind: String = BookKind.storybook.rawValue

    @Option(name: .long, help: "A theme the book names (bookrender themes lists them); the kind's own when left out.")
    var theme: String?

    @Argument(help: "The folder to start the book in (made when missing; default: the working folder).")
    var folder: String = "."

    @OptionGroup var jsonFlags: JSONFlags

    func validate() throws {
        guard BookKind(rawValue: kind) != nil else {
            throw ValidationError("--kind must be \(BookKind.allCases.map(\.rawValue).joined(separator: " or ")), not \(kind)")
        }
    }

    func run() throws {
        let result = ResultOutput(command: "init", json: jsonFlags.json)
        do throws(BookRenderError) {
            let made = try Starter.write(kind: BookKind(rawValue: kind)!, into: URL(fileURLWithPath: folder), theme: theme)
            let book = (folder as NSString).appendingPathComponent("book.json")
            Console.error("wrote \(book) and \((folder as NSString).appendingPathComponent("images"))/; next: bookrender export \(book) -o book.pdf")
            try result.emit(InitResult(kind: kind, written: made.map(\.path), findings: []))
        } catch {
            throw result.fail(error)
        }
    }
}

struct InitResult: Encodable {
    var kind: String
    /// The book, then its images folder.
    var written: [String]
    var findings: [Diagnostic]
}
