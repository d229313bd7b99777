import ArgumentParser
import Foundation
import BookRenderKit

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

    @Flag(name: .customLong("no-tags"), help: "Write the PDF without its structure tags (headings, paragraphs, figures' alternate text), for a workflow that cannot take them.")
    var noTags = false

    @Option(name: .long, help: "Only these physical pages, e.g. 3-7 or 1,4-6; not with a printer's profile (kdp, lulu, ingramspark), which takes whole books.")
    var pages: PageSelection?

    @Option(name: .long, help: "Use this theme from templates/ instead of the book's own.")
    var theme: String?

    @Flag(name: .long, help: "Treat a missing image or a placeholder as an error.")
    var strict = false

    @Option(name: .long, help: "Print profile: a file's name in templates/profiles, such as kdp; an unknown name lists them.")
    var profile: String?

    @Flag(name: .long, help: "Replace outputs that are read-only files; with --profile, write the PDF even when preflight finds errors.")
    var force = false

    @Option(name: .long, help: "Write a JSON report (pages, placeholders, findings, fonts, images, time per stage) to this file; when the export fails, its error.")
    var report: String?

    @Option(name: .long, help: "Threads the export uses to read images, lay out long texts, copy pictures into the PDF and rasterize PNG pages (default: one per core). The files are the same whatever the number.")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "First generate the missing illustrations (as `bookrender illustrate` does).")
    var fillMissing = false

    @OptionGroup(title: "With --fill-missing") var illustrate: IllustrateFlags

    @Flag(name: .long, help: "Print progress and the outcome as JSON Lines on stdout (events progress, warning, done, error).")
    var events = false

    @OptionGroup(title: "Output") var level: OutputLevel

    @OptionGroup(title: "Limits") var limits: LimitFlags

    func validate() throws {
        guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
        guard output.lowercased().hasSuffix(".pdf") else { throw ValidationError("--output must name a .pdf file") }
        if spreads && png == nil { throw ValidationError("--spreads needs --png DIR") }
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
    }

    func run() throws {
        let settings = RenderSettings(theme: theme, profile: profile, strict: strict, workers: workers,
                                      limits: limits.limits)
        var options = ExportOptions(pdf: URL(fileURLWithPath: output),
                                    png: png.map { .init(folder: URL(fileURLWithPath: $0), dpi: dpi, spreads: spreads) },
                                    pages: pages?.ranges, force: force, report: report.map { URL(fileURLWithPath: $0) },
                                    keepPageTree: true)
        let progressLine = ProgressLine(enabled: !level.quiet && isatty(STDERR_FILENO) == 1)
        let eventLines = events ? EventLines() : nil
        options.progress = { p in
            progressLine.update(p.stage == .png ? "png pages" : "pdf pages", done: p.done, total: p.total)
            eventLines?.emit("progress", ["stage": p.stage.rawValue, "done": p.done, "total": p.total])
        }
        options.tagged = !noTags
        do throws(BookRenderError) {
            let file = fillMissing ? try illustrate.fill(book) : URL(fileURLWithPath: book)
            let result = try BookDocument.open(file, settings: settings).export(options)
            progressLine.clear()
            for finding in result.findings {
                Console.error(finding.stage == .preflight ? "preflight \(finding)" : "\(finding)")
                eventLines?.emit("warning", ["message": "\(finding)", "kind": finding.kind, "pages": finding.pages, "jsonPath": finding.jsonPath])
            }
            if level.verbose {
                for t in result.timings { Console.error(String(format: "  %@ %.3f s", t.stage, t.seconds)) }
            }
            var summary = "wrote \(output) (\(result.writtenPages.count) pages)"
            if let png { summary += ", \(result.pngFiles.count) PNG files in \(png) at \(Int(dpi)) dpi" }
            if !result.placeholders.isEmpty { summary += "; \(result.placeholders.count) placeholder(s)" }
            if !level.quiet { Console.error(summary) }
            eventLines?.emit("done", ["pdf": output, "pages": result.writtenPages.count, "pngFiles": result.pngFiles.count,
                                      "placeholders": result.placeholders.count])
            // The page tree holds every Pango line and glyph of the book: freeing it piece by piece
            // gives nothing back to a process about to end.
            LeftToExit.keep(result)
        } catch {
            progressLine.clear()
            eventLines?.emit("error", ["message": error.message, "exitCode": Int(error.exitCode)])
            if let report, error.kind != .unwritableOutput {
                try? ExportOutcome(error: error).write(to: URL(fileURLWithPath: report), sparing: [URL(fileURLWithPath: book)],
                                                       replacingReadOnly: force)
            }
            throw Exit.fail(error)
        }
    }
}
