import ArgumentParser
import Foundation
import BookModel
import BookResolve
import BookLayout
import BookRender

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render a book (book.json or an app's saved story) to a PDF and, optionally, page PNGs.")

    @Argument(help: "The book: bookrender's book.json, or a \(SourceFormat.appNames) file.")
    var book: String

    @Option(name: .shortAndLong, help: "The PDF to write.")
    var output: String

    @Option(name: .long, help: "Also write one PNG per page into this folder.")
    var png: String?

    @Option(name: .long, help: "PNG resolution in dots per inch.")
    var dpi: Double = 150

    @Flag(name: .long, help: "With --png, also write facing-page previews (spread-NNN-NNN.png).")
    var spreads = false

    @Option(name: .long, help: "Only these physical pages, e.g. 3-7 or 1,4-6.")
    var pages: PageSelection?

    @Option(name: .long, help: "Use this theme from templates/ instead of the book's own.")
    var theme: String?

    @Flag(name: .long, help: "Treat a missing image or a placeholder as an error.")
    var strict = false

    @Option(name: .long, help: "Print profile: a file's name in templates/profiles, such as kdp; an unknown name lists them.")
    var profile: String?

    @Flag(name: .long, help: "With --profile: write the PDF even when preflight finds errors.")
    var force = false

    @Option(name: .long, help: "Write a JSON report (pages, placeholders, warnings) to this file.")
    var report: String?

    @Option(name: .long, help: "Threads the export uses to read images, lay out long texts, copy pictures into the PDF and rasterize PNG pages (default: one per core). The files are the same whatever the number.")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "First generate the missing illustrations (as `bookrender illustrate` does).")
    var fillMissing = false

    @OptionGroup(title: "With --fill-missing") var illustrate: IllustrateFlags

    func validate() throws {
        guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
        guard output.lowercased().hasSuffix(".pdf") else { throw ValidationError("--output must name a .pdf file") }
        if spreads && png == nil { throw ValidationError("--spreads needs --png DIR") }
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
    }

    func run() throws {
        do {
            // With one worker, everything stays on this thread (a batch runs its exports so).
            if workers > 1 { PDFFinisher.prepare() }
            let book = fillMissing ? try illustrate.fill(self.book) : self.book
            let pipeline = Pipeline(theme: theme, strict: strict, profile: profile, threads: workers)
            let loaded = try pipeline.load(book)
            let (resolved, resources) = try pipeline.resolve(loaded)
            let pdf = URL(fileURLWithPath: output)
            try ensureFolder(pdf.deletingLastPathComponent())
            let tree: PageTree
            let selected: Set<Int>?
            if resolved.profile == nil && pages == nil {
                // Pages are drawn as layout makes them; a finding that stops the export stops it
                // before the PDF replaces anything.
                selected = nil
                let document = PDFDocument(trim: resolved.trim, geometry: PrintGeometry(nil), title: resolved.book.title,
                                           author: resolved.book.author, created: resolved.book.created)
                tree = try PrintPDF.write(to: pdf, document: document, threads: workers) { drawPage in
                    // Without PNGs to draw afterwards, a drawn page's text need not stay in memory.
                    let tree = try pipeline.layout(resolved, resources: resources, keepingText: png != nil, eachPage: drawPage)
                    try report(tree, loaded)
                    return tree
                }
            } else {
                tree = try pipeline.layout(resolved, resources: resources)
                selected = try pages?.pages(upTo: tree.pages.count)
                try report(tree, loaded)
                if let printProfile = resolved.profile {
                    let findings = PageTreePreflight.check(tree, profile: printProfile)
                    findings.forEach { Console.error("preflight \($0)") }
                    if !findings.errors.isEmpty && !force {
                        throw PreflightRefusal(message: "preflight found \(findings.errors.count) error(s) for \(printProfile.name); "
                            + "fix them, or pass --force to write the PDF anyway")
                    }
                }
                try PrintPDF.write(tree, to: pdf, pages: selected, profile: resolved.profile, threads: workers)
            }
            var summary = "wrote \(output) (\(selected?.count ?? tree.pages.count) pages)"
            if let png {
                let dir = URL(fileURLWithPath: png)
                try ensureFolder(dir)
                let files: [URL]
                if workers == 1 {
                    files = try PNGPageWriter(dpi: dpi, spreads: spreads).write(tree, to: dir, pages: selected)
                } else {
                    // Only for a book with a text Pango must draw: each worker lays it out again, on one thread.
                    let perWorker = Pipeline(theme: theme, strict: strict, profile: profile, threads: 1)
                    files = try ParallelPNGWriter(dpi: dpi, spreads: spreads, workers: workers)
                        .write(tree, to: dir, pages: selected) {
                            try perWorker.layout(resolved, resources: resources)
                        }
                }
                summary += ", \(files.count) PNG files in \(png) at \(Int(dpi)) dpi"
            }
            if let report {
                try ExportReport(tree: tree, source: loaded.source).write(to: URL(fileURLWithPath: report))
            }
            let placeholders = tree.findings.filter { $0.kind == .placeholder || $0.kind == .missingImage }.count
            if placeholders > 0 { summary += "; \(placeholders) placeholder(s)" }
            Console.error(summary)
            LeftToExit.keep(tree)
        } catch let e as ValidationError {
            throw e
        } catch {
            throw Exit.fail(error)
        }
    }

    /// Prints the warnings and findings; with --strict, an error or a missing glyph stops the export.
    private func report(_ tree: PageTree, _ loaded: LoadedBook) throws {
        for w in loaded.warnings { Console.error("warning: \(w)") }
        for f in tree.findings { Console.error(f.description) }
        if strict, let bad = tree.findings.first(where: { $0.severity == .error || $0.kind == .missingGlyph }) {
            throw ResolveError("--strict: \(bad)")
        }
    }

    private func ensureFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw OutputError(message: "cannot create the folder \(url.path): \(error.localizedDescription)")
        }
    }
}
