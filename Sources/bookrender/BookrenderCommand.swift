import ArgumentParser
import Foundation
import BookLayout
import BookRenderKit
import CShapeCache
import BookRender

@main
struct Bookrender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookrender",
        abstract: "Render storybooks and memoirs to print-ready PDFs and page PNGs.",
        discussion: """
        Exit codes: \(ExitCodes.summary) compare: 0 same, 1 differs, 2 error.
        Every command takes --json (its result as JSON on stdout, schema/report.schema.json); those \
        that write files also take --report FILE (- for stdout).
        """,
        subcommands: [Export.self, Cover.self, Preflight.self, Validate.self, Info.self, Import.self, Compare.self, Batch.self,
                      Illustrate.self, Order.self, Watch.self, Serve.self, Init.self, Fonts.self, Themes.self]
    )

    @Flag(name: .long, help: "Print bookrender's version, the font set's hash and the cairo, Pango and HarfBuzz versions (with --json, as JSON).")
    var version = false

    func run() throws {
        guard version else { throw CleanExit.helpRequest(self) }
        Producer.current().lines.forEach(Console.out)
    }

    static func main() {
        // Before anything uses Pango: whether the shaping cache is on is decided once, for the
        // whole process (CShapeCache/include/shape_cache.h).
        shape_cache_start()
        // Also before any thread: cairo's page content plain, compressed once by the PDF's sink
        // (BookRender's PlainStreams), where cairo would compress it and the finishing inflate it
        // again to mark its artifacts. Only for the cairo whose output the sink reads.
        if ProcessInfo.processInfo.environment[PlainCairoContent.switchVariable] != "0", PlainCairoContent.readsThisCairo {
            setenv(PlainCairoContent.cairoVariable, "1", 1)
        }
        ShapingCacheHook.pieceIsCut = shape_cache_piece_is_cut
        // A command of one book uses a few faces: they are held as layout meets them, not all
        // opened up front (FontLibrary.holdsEveryFace). The service, a batch and the theme sheets
        // lay out many books and themes at once.
        if let command = CommandLine.arguments.dropFirst().first, !["serve", "batch", "themes"].contains(command) {
            FontLibrary.holdsEveryFace = false
        }
        Interruption.install()
        refuseUnknownCommand()
        // A root `--json` would be taken by the parser for every command's own.
        if Set(CommandLine.arguments.dropFirst()) == ["--version", "--json"], CommandLine.arguments.count == 3 {
            try? ResultOutput(command: "version", json: true).emit(VersionBody())
            Foundation.exit(0)
        }
        main(optionalValues(Array(CommandLine.arguments.dropFirst())))
    }

    /// `export --preview` with no number shows one page: the parser wants a value for every
    /// option, so the 1 is written in.
    static func optionalValues(_ arguments: [String]) -> [String] {
        guard arguments.first == "export" else { return arguments }
        var out: [String] = []
        for (i, word) in arguments.enumerated() {
            out.append(word)
            if word == "--preview", i + 1 == arguments.count || Int(arguments[i + 1]) == nil { out.append("1") }
        }
        return out
    }

    /// `bookrender exprot …`: the parser would call the word an unexpected argument; name the
    /// command it most likely meant.
    private static func refuseUnknownCommand() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let word = arguments.first, !word.hasPrefix("-") else { return }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return }
        var message = "error: unknown command '\(word)'"
        if let near = Spelling.nearest(to: word, among: names) { message += "; did you mean '\(near)'?" }
        Console.error(message)
        Console.error("Usage: bookrender <command>  (\(names.dropLast().joined(separator: ", ")))\n  See 'bookrender --help' for more information.")
        Foundation.exit(64)
    }
}

/// `--version --json`: the producer block every report carries, on its own.
struct VersionBody: Encodable {}
