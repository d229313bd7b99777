import ArgumentParser
import CShapeCache

@main
struct Bookrender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookrender",
        abstract: "Render storybooks and memoirs to print-ready PDFs and page PNGs.",
        discussion: """
        Exit codes: 0 success (warnings may be printed), 64 bad command line, 65 the book or an image \
        in it is invalid (or --strict found a missing image), 66 the input cannot be read, \
        73 an output cannot be written, 70 rendering failed.
        """,
        subcommands: [Export.self, Cover.self, Preflight.self, Validate.self, Info.self, Import.self, Compare.self, Batch.self, Illustrate.self, Watch.self, Serve.self]
    )

    static func main() {
        // Before anything uses Pango: whether the shaping cache is on is decided once, for the
        // whole process (CShapeCache/include/shape_cache.h).
        shape_cache_start()
        Interruption.install()
        main(nil)
    }
}
