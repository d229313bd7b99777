import ArgumentParser
import Foundation
import BookRenderKit

struct Themes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the themes a book can be set in: name, what it is for, its type, colours and cover.",
        discussion: "A book names its theme in book.json (\"theme\"), or export --theme NAME sets it for one run. \(ExitCodes.pointer)")

    @Option(name: .customLong("preview"), help: ArgumentHelp("Write a contact sheet of each theme to this folder: <theme>.png, the cover and first pages of a book set in it.", valueName: "folder"))
    var preview: String?

    @Option(help: ArgumentHelp("With --preview: the book to show in every theme (default: the sample storybook or memoir, whichever the theme is for).", valueName: "book"))
    var book: String?

    @Option(help: "With --preview: how many pages each sheet shows, the cover first.")
    var pages: Int = ThemePreview.defaultPages

    @OptionGroup var jsonFlags: JSONFlags

    func validate() throws {
        if preview == nil, book != nil { throw ValidationError("--book is for --preview: give the folder the sheets go to") }
    }

    func run() throws {
        let result = ResultOutput(command: "themes", json: jsonFlags.json)
        var listing: ThemeListing
        do throws(BookRenderError) {
            listing = try ThemeListing.read()
            if let preview {
                listing.sheets = try ThemePreview.write(to: URL(fileURLWithPath: preview), book: book.map { URL(fileURLWithPath: $0) },
                                                        pages: pages, listing: listing)
            }
        } catch { throw result.fail(error) }
        if result.json {
            try? result.emit(listing)
            return
        }
        if let sheets = listing.sheets {
            for sheet in sheets {
                Console.out("wrote \(sheet.file): \(sheet.theme), \(sheet.pages) page(s) of \(sheet.book)")
            }
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
