import ArgumentParser
import Foundation
import BookRenderKit

struct Themes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the themes a book can be set in: name, what it is for, its type, colours and cover.",
        discussion: "A book names its theme in book.json (\"theme\"), or export --theme NAME sets it for one run. \(ExitCodes.pointer)")

    @OptionGroup var jsonFlags: JSONFlags

    func run() throws {
        let result = ResultOutput(command: "themes", json: jsonFlags.json)
        let listing: ThemeListing
        do throws(BookRenderError) { listing = try ThemeListing.read() } catch { throw result.fail(error) }
        if result.json {
            try? result.emit(listing)
            return
        }
        Console.out("themes in \(listing.folder)")
        for theme in listing.themes {
            let kind = theme.defaultFor.map { " (the default for a \($0))" } ?? ""
            Console.out("\(theme.name)\(kind): \(theme.description)")
            Console.out("  type: \(theme.titleFamily) titles, \(theme.bodyFamily) \(theme.bodySize.formatted(.number.precision(.fractionLength(0...1)))) pt body; "
                        + "paper \(theme.paper), ink \(theme.ink), accent \(theme.accent); cover \(theme.coverStyle)")
        }
    }
}
