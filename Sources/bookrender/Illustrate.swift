import ArgumentParser
import Foundation
import BookRenderKit

struct Illustrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "illustrate",
        abstract: "Generate the missing illustrations of a book (cover, pages) with an image provider.",
        discussion: """
        Keys come from OPENAI_API_KEY, GEMINI_API_KEY or OPENROUTER_API_KEY. A journal beside the book \
        (BOOK.illustrate.json) lets an interrupted run resume; pictures are cached by content under \
        $XDG_CACHE_HOME/bookrender/illustrations (or ~/.cache/…). Exit 0 even when some pages failed: \
        they keep their placeholder and the summary names them; 70 when none could be made. A rejected key, \
        a provider that cannot be reached or a failed TLS handshake ends the run (exit 70); a rate limit \
        longer than --max-wait leaves pages for a later run. A first Ctrl-C waits for the calls in flight \
        and keeps their pictures; a second stops at once. \
        --status lists each picture's state \
        from the journal (no call is made); --events streams state changes as JSON Lines; --json prints \
        the run's summary (with --status, the states: schema/illustrate-status.schema.json). See \
        `bookrender --help`.
        """)

    @Argument(help: "The book: bookrender's book.json, or a \(SourceFormat.appNames) file.")
    var book: String

    @OptionGroup var options: IllustrateFlags

    @Flag(name: .long, help: "List each picture's state, attempts, last error and cost class from the journal; call no provider.")
    var status = false

    @Flag(name: .long, help: "Print the run's summary as JSON on stdout; with --status, the states (schema/illustrate-status.schema.json).")
    var json = false

    @Flag(name: .long, help: "Stream each picture's state changes, then a summary, as JSON Lines on stdout.")
    var events = false

    @Option(name: .long, help: "Write the --events lines to this file instead of stdout.")
    var eventsFile: String?

    func validate() throws {
        if json, events { throw ValidationError("--events and --json would share stdout: write the events with --events-file FILE") }
        if status, events || eventsFile != nil { throw ValidationError("--status reads the journal; --events belongs to a run") }
        if options.dryRun, events || eventsFile != nil { throw ValidationError("--dry-run changes no state, so it has no --events") }
    }

    func run() throws {
        let result = ResultOutput(command: "illustrate", json: json)
        do throws(BookRenderError) {
            if status {
                let s = try Illustration.status(bookAt: URL(fileURLWithPath: book))
                if json { try result.emit(s) } else { s.lines.forEach(Console.out) }
                return
            }
            var sink: (@Sendable (IllustrationEvent) -> Void)?
            if let eventsFile {
                guard FileManager.default.createFile(atPath: eventsFile, contents: nil),
                      let handle = FileHandle(forWritingAtPath: eventsFile) else {
                    throw BookRenderError(.unwritableOutput, "cannot write the events to \(eventsFile); choose a writable path")
                }
                sink = IllustrationEvent.jsonLines(to: handle, whenClosed: { Console.closedOutput() })
            } else if events {
                sink = IllustrationEvent.jsonLines(to: .standardOutput, whenClosed: { Console.closedOutput() })
            }
            let summary = try options.fill(book, events: sink, output: Console.printer(toStderr: json))
            try result.emit(IllustrateResult(summary))
            Interruption.endIfFinishRequested()
        } catch {
            let code = result.fail(error)
            // A run asked to finish ends by that signal, whatever it returned.
            Interruption.endIfFinishRequested()
            throw code
        }
    }
}

/// The flags `illustrate` and `export --fill-missing` share.
struct IllustrateFlags: ParsableArguments {
    @Option(name: .long, help: "\(ProviderName.allCases.map(\.rawValue).joined(separator: ", ")); local draws offline, from the scene.")
    var provider: String = "local"

    @Option(name: .long, help: "The provider's model (default: \(ProviderName.allCases.map { "\($0.defaultModel) for \($0.rawValue)" }.joined(separator: ", "))).")
    var model: String?

    @Option(name: .long, help: "Calls in flight at once.")
    var concurrency: Int = 4

    @Option(name: .long, help: "Make at most this many pictures in this run.")
    var maxImages: Int?

    @Option(name: .long, help: "preview (cheaper) or print.")
    var resolution: String = "print"

    @Flag(name: .long, help: "Print each prompt, the reference images and the estimated cost; send nothing.")
    var dryRun = false

    @Option(name: .long, help: "Replace everything before the API path (scheme, host, port, path prefix); the provider's path, e.g. /v1/images/edits, is appended. Default: https://api.openai.com, https://generativelanguage.googleapis.com, https://openrouter.ai/api.")
    var baseURL: String?

    @Option(name: .long, help: "The picture cache folder.")
    var cache: String?

    @Option(name: .long, help: "Seconds to wait for one call.")
    var timeout: Double = 240

    @Flag(name: .long, help: "Go on without the main character's picture when it cannot be read or made (pictures so made are redone by a later run).")
    var noReference = false

    @Flag(name: .long, help: "Make pages and cover as cheaper previews, recorded as drafts; a later run without --draft makes them for print from the same character picture.")
    var draft = false

    @Option(name: .long, help: "The model for --draft pictures (needed where the run's model has one price for every quality).")
    var draftModel: String?

    @Option(name: .long, help: "Seconds to wait for another illustrate or export --fill-missing on the same book to finish.")
    var lockWait: Double = 30

    @Option(name: .long, help: "The longest wait a rate limit may impose before a retry; a page told to wait longer is left for a later run.")
    var maxWait: Double = 60

    func validate() throws {
        guard ProviderName(rawValue: provider) != nil else {
            throw ValidationError("--provider must be one of \(ProviderName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard IllustrationResolution(rawValue: resolution) != nil else { throw ValidationError("--resolution must be preview or print") }
        guard concurrency >= 1, concurrency <= 64 else { throw ValidationError("--concurrency must be between 1 and 64") }
        if let maxImages, maxImages < 0 { throw ValidationError("--max-images must not be negative") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard lockWait >= 0 else { throw ValidationError("--lock-wait must not be negative") }
        if draftModel != nil, !draft { throw ValidationError("--draft-model is for --draft runs; add --draft, or leave --draft-model out") }
        guard maxWait >= 0 else { throw ValidationError("--max-wait must not be negative") }
    }

    /// Runs the step and returns the book to render (a new file beside an app's file).
    func fill(_ book: String, events: (@Sendable (IllustrationEvent) -> Void)? = nil,
              output: @escaping @Sendable (String) -> Void = { Console.out($0) }) throws(BookRenderError) -> IllustrateSummary {
        let name = ProviderName(rawValue: provider)!
        let env = ProcessInfo.processInfo.environment
        let settings = ProviderSettings(name: name, model: model, baseURL: baseURL,
                                        apiKey: name.keyVariable.flatMap { env[$0] } ?? "", timeout: timeout)
        let cacheDir = cache.map { URL(fileURLWithPath: $0) } ?? IllustrationCache.defaultDirectory()
        var retry = RetryPolicy(maxWait: maxWait)
        // On a terminal, a line of pictures done and left; the events go on to `events` as they come.
        let progress = ProgressLine(), pictures = PictureProgress(progress)
        defer { progress.clear() }
        // Lets tests and the benchmark exercise backoff without waiting seconds.
        if let base = env["BOOKRENDER_RETRY_BASE"].flatMap(Double.init) { retry.baseDelay = base }
        var opts = IllustrateOptions(provider: settings, concurrency: concurrency, maxImages: maxImages,
                                     resolution: IllustrationResolution(rawValue: resolution)!, dryRun: dryRun,
                                     cache: IllustrationCache(directory: cacheDir), retry: retry,
                                     noReference: noReference, lockWait: lockWait,
                                     log: { progress.clear(); Console.error($0) }, output: output,
                                     events: { picture in pictures.note(picture); events?(picture) })
        opts.draft = draft
        opts.draftModel = draftModel
        if !dryRun {
            // A first Ctrl-C keeps what the provider is already making (and billing); the caller
            // then ends by the signal. The immediate stop comes back for what follows the filling.
            let stop = IllustrationStop()
            opts.stop = stop
            Interruption.finishFirst { stop.request() }
            // A reader that went away (a closed pipe) stops the run as a first Ctrl-C does: the
            // calls in flight are paid for, so they are waited for and kept.
            Console.whenOutputCloses { stop.request() }
        }
        defer { if !dryRun { Interruption.install() } }
        return try Illustration.run(bookAt: URL(fileURLWithPath: book), options: opts)
    }
}

/// What `illustrate --json` prints: the run's counts, and each picture that failed or was left
/// for later as a finding.
struct IllustrateResult: Encodable {
    var book: String
    var journal: String
    var needed: Int
    var calls: Int
    var cacheHits: Int
    var resumed: Int
    var ready: Int
    var drafts: Int
    var skipped: Int
    var findings: [Diagnostic]

    init(_ s: IllustrateSummary) {
        book = s.bookFile.path; journal = s.journalFile.path; needed = s.needed; calls = s.calls; cacheHits = s.cacheHits
        resumed = s.resumed; ready = s.ready; drafts = s.drafts; skipped = s.skipped
        findings = s.failures.map { Diagnostic(.warning, stage: .load, kind: "generationFailed", message: "\($0.label): \($0.reason)",
                                               hint: "its placeholder stays; run illustrate again") }
            + s.postponed.map { Diagnostic(.warning, stage: .load, kind: "postponed", message: "\($0.label): \($0.reason)",
                                           hint: "left for a later run") }
            + s.warnings.map { Diagnostic(.warning, stage: .load, kind: "pictureShape", message: "\($0.label): \($0.message)",
                                          hint: "check the page in a preview; remove the picture from the book to have it made again") }
    }
}
