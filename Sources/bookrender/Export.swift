import ArgumentParser
import Foundation
import BookRenderKit
import BookRender

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render a book (book.json or an app's saved story) to a PDF, page PNGs, an EPUB, or a preview of its first pages.",
        discussion: ExitCodes.pointer)

    @Argument(help: "The book: bookrender's book.json, or a \(SourceFormat.appNames) file.")
    var book: String

    @Option(name: .shortAndLong, help: "The PDF to write (leave it out for PNGs only).")
    var output: String?

    @Option(name: .long, help: "Write one PNG per page into this folder.")
    var png: String?

    @Option(name: .long, help: "PNG resolution in dots per inch (with --png; default 150, 96 for a preview).")
    var dpi: Double?

    @Option(name: .long, help: "Also write the book as an EPUB 3 fixed-layout e-book: the same pages, live text in the book's fonts, its narration read along.")
    var epub: String?

    @Option(name: .long, help: ArgumentHelp("Only the first N pages (1 when N is left out), marked as a preview, for a screen: with -o a small PDF, with --png PNGs at 96 dpi.", valueName: "N"))
    var preview: Int?

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

    @Option(name: .long, help: "With --profile: paperback, or hardcover (case-bound), which sets the page counts the printer binds (lulu: a hardcover from 24 pages, a paperback from 32).")
    var binding: String = "paperback"

    @Flag(name: .long, help: "Replace outputs that are read-only files; with --profile, write the PDF even when preflight finds errors.")
    var force = false

    @Option(name: .long, help: "Write a JSON report (pages, placeholders, findings, fonts, images, time per stage) to this file, - for stdout; when the export fails, its error.")
    var report: String?

    @OptionGroup var jsonFlags: JSONFlags

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
        guard output != nil || png != nil || epub != nil else { throw ValidationError("nothing to write: give -o OUT.pdf, --png DIR, --epub OUT.epub, or several") }
        if let epub, !epub.lowercased().hasSuffix(".epub") { throw ValidationError("--epub must name a .epub file") }
        if let preview {
            guard preview >= 1 else { throw ValidationError("--preview shows at least 1 page") }
            guard epub == nil else { throw ValidationError("--preview writes a PDF and PNGs; an EPUB is of the whole book: leave out one of them") }
            guard output != nil || png != nil else { throw ValidationError("--preview needs -o OUT.pdf, --png DIR, or both") }
            guard pages == nil else { throw ValidationError("--preview shows the first pages; leave out --pages") }
            guard profile == nil else { throw ValidationError("--preview is for a screen; leave out --profile") }
        }
        if let output, !output.lowercased().hasSuffix(".pdf") { throw ValidationError("--output must name a .pdf file") }
        if let dpi {
            guard png != nil else { throw ValidationError("--dpi sets the PNG resolution, and no PNGs are written: add --png DIR, or leave --dpi out") }
            guard dpi >= 10, dpi <= 1200 else { throw ValidationError("--dpi must be between 10 and 1200") }
        }
        if spreads && png == nil { throw ValidationError("--spreads needs --png DIR") }
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
        guard CoverBinding(rawValue: binding) != nil else { throw ValidationError("--binding must be paperback or hardcover") }
        if binding != "paperback", profile == nil { throw ValidationError("--binding says how a printer binds the book: give --profile too") }
        if report == "-", jsonFlags.json { throw ValidationError("--json and --report - both print the report on stdout; give one") }
        if events, jsonFlags.json || report == "-" {
            throw ValidationError("--events prints JSON Lines on stdout, where \(jsonFlags.json ? "--json" : "--report -") prints the report; write the report to a file, or leave one out")
        }
    }

    func run() throws {
        let settings = RenderSettings(theme: theme, profile: profile, strict: strict, workers: workers,
                                      limits: limits.limits, binding: CoverBinding(rawValue: binding) ?? .paperback)
        let result = ResultOutput(command: "export", json: jsonFlags.json, report: report)
        let dpi = self.dpi ?? (preview == nil ? 150 : 96)
        var options = ExportOptions(pdf: output.map { URL(fileURLWithPath: $0) },
                                    png: png.map { .init(folder: URL(fileURLWithPath: $0), dpi: dpi, spreads: spreads) },
                                    pages: pages?.ranges, force: force, report: result.reportFile,
                                    keepPageTree: true, epub: epub.map { URL(fileURLWithPath: $0) }, preview: preview)
        let progressLine = ProgressLine(enabled: !level.quiet && isatty(STDERR_FILENO) == 1)
        let eventLines = events ? EventLines() : nil
        options.progress = { p in
            progressLine.update(p.stage == .png ? "png pages" : "pdf pages", done: p.done, total: p.total)
            eventLines?.emit("progress", ["stage": p.stage.rawValue, "done": p.done, "total": p.total])
        }
        options.tagged = !noTags
        do throws(BookRenderError) {
            let file = fillMissing
                ? try illustrate.fill(book, output: Console.printer(toStderr: result.toStdout)).bookFile
                : URL(fileURLWithPath: book)
            // Interrupted while filling: the pictures made are kept, the book is not rendered.
            if fillMissing { Interruption.endIfFinishRequested() }
            // The PDF is the last thing written, and the process ends with it: what the finishing
            // read is left to the system to free, with everything else.
            PrintPDF.freesFinishedDocuments = png != nil || epub != nil
            let exported = try BookDocument.open(file, settings: settings).export(options)
            for finding in exported.findings {
                progressLine.clear()
                Console.error(finding.stage == .preflight ? "preflight \(finding)" : "\(finding)")
                eventLines?.emit("warning", ["message": "\(finding)", "kind": finding.kind, "pages": finding.pages, "jsonPath": finding.jsonPath])
            }
            if level.verbose {
                for t in exported.timings { Console.error(String(format: "  %@ %.3f s", t.stage, t.seconds)) }
            }
            var written: [String] = []
            if let output { written.append("\(output) (\(exported.writtenPages.count) pages)") }
            if let png { written.append("\(exported.pngFiles.count) PNG files in \(png) at \(Int(dpi)) dpi") }
            if let epub {
                let narrated = exported.narratedPages.map { $0.isEmpty ? "" : ", narration on \($0.count) pages" } ?? ""
                written.append("\(epub) (\(exported.pageCount) pages\(narrated))")
            }
            if preview != nil { written[0] = "preview: " + written[0] }
            var summary = "wrote " + written.joined(separator: ", ")
            if !exported.placeholders.isEmpty { summary += "; \(exported.placeholders.count) placeholder(s)" }
            if let paper = exported.paper {
                summary += "; the page colour \(paper.pageColour) is the paper's, not printed: print on \(paper.suggested) paper (cover --paper \(paper.suggested))"
            }
            if !level.quiet { Console.error(summary) }
            eventLines?.emit("done", ["pdf": output, "epub": epub, "pages": exported.writtenPages.count, "pngFiles": exported.pngFiles.count,
                                      "placeholders": exported.placeholders.count])
            try result.emit(exported, writeFile: false)
            // The page tree holds every Pango line and glyph of the book: freeing it piece by piece
            // gives nothing back to a process about to end.
            LeftToExit.keep(exported)
        } catch {
            progressLine.clear()
            eventLines?.emit("error", ["message": error.message, "exitCode": Int(error.exitCode)])
            if let reportFile = result.reportFile, error.kind != .unwritableOutput {
                try? ExportOutcome(error: error).write(to: reportFile, sparing: [URL(fileURLWithPath: book)],
                                                       replacingReadOnly: force)
            }
            result.emitFailure(error)
            let code = Exit.fail(error)
            // A filling asked to finish ends by that signal, whatever it returned.
            if fillMissing { Interruption.endIfFinishRequested() }
            throw code
        }
    }
}
