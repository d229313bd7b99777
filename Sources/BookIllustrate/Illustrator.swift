import Foundation
import BookHTTP
import BookBase
import BookModel
import BookConfig
import BookResolve

/// How a run is set up.
public struct IllustrateOptions: Sendable {
    public var provider: ProviderSettings
    public var concurrency: Int
    public var maxImages: Int?
    public var resolution: Resolution
    public var dryRun: Bool
    public var cache: IllustrationCache
    public var retry: RetryPolicy
    /// Go on when the main character's picture cannot be had (--no-reference); pictures made so are not recorded as ready.
    public var noReference: Bool
    /// Seconds to wait for another run on the same book to finish before giving up (--lock-wait).
    public var lockWait: Double
    /// Pages and cover at preview quality, recorded as drafts that a later run without it makes again
    /// at print quality (--draft). The main character's picture is made at print quality even so:
    /// every page is drawn from it, and the final pages must be drawn from the same one.
    public var draft: Bool = false
    /// The model for drafts (--draft-model); without it, the run's model at preview quality.
    public var draftModel: String?
    /// Progress and failures (stderr in the CLI).
    public var log: @Sendable (String) -> Void
    /// The --dry-run listing (stdout in the CLI).
    public var output: @Sendable (String) -> Void
    /// Asks the run to finish early (a first Ctrl-C), keeping the calls in flight.
    public var stop: IllustrationStop?
    /// Each picture's state as it changes, then the summary (`--events`).
    public var events: (@Sendable (IllustrationEvent) -> Void)?

    public init(provider: ProviderSettings, concurrency: Int = 4, maxImages: Int? = nil, resolution: Resolution = .print,
                dryRun: Bool = false, cache: IllustrationCache = IllustrationCache(directory: IllustrationCache.defaultDirectory()),
                retry: RetryPolicy = RetryPolicy(), noReference: Bool = false, lockWait: Double = 30, log: @escaping @Sendable (String) -> Void = { _ in },
                output: @escaping @Sendable (String) -> Void = { _ in },
                events: (@Sendable (IllustrationEvent) -> Void)? = nil) {
        self.provider = provider; self.concurrency = max(1, concurrency); self.maxImages = maxImages
        self.resolution = resolution; self.dryRun = dryRun; self.cache = cache; self.retry = retry
        self.noReference = noReference; self.lockWait = lockWait
        self.log = log; self.output = output; self.events = events
    }
}

public struct IllustrateSummary: Sendable {
    /// The book file holding the pictures: the input for a book.json, a new file beside an app's file.
    public var bookFile: URL
    public var journalFile: URL
    public var needed: Int
    public var calls: Int
    public var cacheHits: Int
    /// Pictures taken from the journal of an interrupted run.
    public var resumed: Int
    public var ready: Int
    public var failures: [(label: String, reason: String)]
    public var skipped: Int
    /// Pictures left for a later run because the provider asked for a longer wait than `--max-wait`.
    public var postponed: [(label: String, reason: String)] = []
    /// Of the pictures ready, those made as drafts (--draft), to be made again for print.
    public var drafts = 0
    /// Pictures used although something about them is not as asked (their shape).
    public var warnings: [(label: String, message: String)] = []
    /// The run was asked to finish early (`IllustrateOptions.stop`): it kept the calls in flight and
    /// left this many pictures for a later run.
    public var interrupted = false
    public var leftByInterruption = 0

    public var lines: [String] {
        var out = ["illustrate: \(ready) of \(needed) picture(s) ready; \(calls) call(s) made, \(cacheHits) cache hit(s)"
                   + (resumed > 0 ? ", \(resumed) resumed from the journal" : "")
                   + (failures.isEmpty ? ", no failures" : ", \(failures.count) failed")
                   + (skipped > 0 ? ", \(skipped) left for later (--max-images)" : "")
                   + (postponed.isEmpty ? "" : ", \(postponed.count) left for a later run (\(postponed[0].reason))")
                   + (interrupted ? "; interrupted, \(leftByInterruption) left for a later run" : "")]
        if drafts > 0 {
            out.append("  \(drafts) draft(s) for preview: run illustrate again without --draft to make them for print, from the same character picture")
        }
        for w in warnings { out.append("  warning: \(w.label): \(w.message)") }
        for f in failures { out.append("  failed: \(f.label): \(f.reason) (its placeholder stays)") }
        return out
    }
}

/// Counters shared by the concurrent jobs.
actor RunCounters {
    var calls = 0, cacheHits = 0, resumed = 0, ready = 0, finished = 0, drafts = 0
    var failures: [(label: String, reason: String)] = []
    var postponed: [(label: String, reason: String)] = []
    var warnings: [(label: String, message: String)] = []
    func postpone(_ label: String, _ reason: String) { postponed.append((label, reason)) }
    func warn(_ label: String, _ message: String) { warnings.append((label, message)) }
    func call() { calls += 1 }
    func hit() { cacheHits += 1 }
    func resume() { resumed += 1 }
    func drafted() { drafts += 1 }
    func done(_ ok: Bool) -> Int { if ok { ready += 1 }; finished += 1; return finished }
    func fail(_ label: String, _ reason: String) { failures.append((label, reason)) }
}

public enum Illustrator {
    /// For synchronous callers (the CLI's commands): runs `run` and waits for it.
    public static func runBlocking(bookAt url: URL, options: IllustrateOptions) throws -> IllustrateSummary {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await run(bookAt: url, options: options)) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// The provider that makes drafts: the run's own at preview quality, or --draft-model's. A model
    /// whose preview costs what its print picture costs is refused: the draft would be paid twice.
    static func draftProvider(_ settings: ProviderSettings, _ options: IllustrateOptions) throws -> (any ImageProvider)? {
        guard options.draft else { return nil }
        var draft = settings
        if let model = options.draftModel, !model.isEmpty { draft.model = model; return draft.makeProvider() }
        guard settings.name.hasCheaperPreview else {
            throw IllustrateError("--draft: \(settings.name.rawValue) makes \(settings.model) pictures at one quality, so a draft would cost "
                                  + "as much as the final picture; name a cheaper model with --draft-model, or leave --draft out")
        }
        return draft.makeProvider()
    }

    /// Files the user made read-only are theirs to keep, even the book this run fills in.
    static func checkWritable(_ files: URL...) throws {
        for file in files {
            if let reason = AtomicOutput.readOnlyReason(file) {
                throw OutputError("\(file.path) is \(reason); make it writable to fill the book's pictures in")
            }
        }
    }

    /// The book to fill in and the file it is written to (beside an app's file, never over it).
    static func load(_ url: URL) throws -> (book: Book, file: URL, loaded: LoadedBook) {
        let loaded = try BookLoader.load(contentsOf: url)
        var book = loaded.book
        var bookFile = url.hasDirectoryPath || url.pathExtension.isEmpty && FileManager.default.fileExists(atPath: url.appendingPathComponent("book.json").path)
            ? url.appendingPathComponent("book.json") : url
        if loaded.source != .bookJSON {
            let derived = bookFile.deletingPathExtension().appendingPathExtension("book.json")
            if let existing = try? BookLoader.load(contentsOf: derived), existing.source == .bookJSON { book = existing.book }
            bookFile = derived
        }
        return (book, bookFile, loaded)
    }

    public static func run(bookAt url: URL, options: IllustrateOptions) async throws -> IllustrateSummary {
        let (loadedBook, bookFile, loaded) = try load(url)
        var book = loadedBook
        if loaded.source != .bookJSON, !options.dryRun {
            options.log("illustrate: \(url.lastPathComponent) is a \(loaded.source); the filled book is written to \(bookFile.lastPathComponent) beside it, the app's file is left as it is")
        }
        let journalURL = bookFile.deletingPathExtension().appendingPathExtension("illustrate.json")
        // Held until this function returns: a second run on the book waits, then finds the pictures made.
        var lock: JournalLock?
        defer { lock?.release() }
        if !options.dryRun {
            // Checked before the lock file is made: a book the user made read-only gets nothing new beside it.
            try Self.checkWritable(bookFile, journalURL)
            let (taken, waited) = try await JournalLock.acquire(journal: journalURL, wait: options.lockWait, stop: options.stop, log: options.log)
            lock = taken
            if waited {
                book = try load(url).book
                try Self.checkWritable(bookFile, journalURL)
            }
        }
        let key = options.provider.apiKey
        if let variable = options.provider.name.keyVariable, key.isEmpty, !options.dryRun {
            throw IllustrateError("\(variable) is not set")
        }
        if !options.dryRun { try options.provider.checkKeyTransport() }

        let (trim, palette) = Self.trimAndPalette(book)
        var settings = options.provider
        if settings.palette.isEmpty { settings.palette = palette }
        let provider = settings.makeProvider()
        let journal = Journal(url: journalURL, book: bookFile.lastPathComponent, provider: provider.name, model: provider.model, writes: !options.dryRun,
                              events: options.events)
        let remake = await journal.remakes(unreferenced: !options.noReference, drafts: !options.draft)
        let plan = IllustrationPlan(book: Self.withoutRemakes(book, remake), trim: trim, maxImages: options.maxImages)
        let bookActor = BookFile(book: book, url: bookFile, folder: loaded.folder, writes: !options.dryRun, replaceable: remake)
        let context = JobContext(provider: provider, draftProvider: try Self.draftProvider(settings, options), builder: PromptBuilder(book: book), book: bookActor, journal: journal,
                                 options: options, plan: plan, counters: RunCounters(), total: plan.all.count, key: key,
                                 gate: CallGate(confirmed: settings.name.keyVariable == nil))

        if !options.noReference, let main = book.characters?.main, let problem = await bookActor.mainCharacterImageProblem() {
            throw IllustrateError("the picture of the main character \(main.name) (characters.main.image) cannot be sent: \(problem); "
                                  + "put the picture there, or remove characters.main.image so one is made first, "
                                  + "or pass --no-reference to make the pictures without it")
        }
        if options.dryRun {
            await DryRun.print(plan: plan, context: context)
            return IllustrateSummary(bookFile: bookFile, journalFile: journalURL, needed: plan.all.count, calls: 0, cacheHits: 0,
                                     resumed: 0, ready: 0, failures: [], skipped: plan.skipped.count)
        }
        options.stop?.onRequest {
            options.log("illustrate: interrupted: no new call starts; waiting for the calls in flight (each at most "
                        + "\(Int(options.provider.timeout.rounded(.up))) s) to keep their pictures; interrupt again to stop at once")
            Task { await context.gate.stop(.interrupted) }
        }
        for job in plan.all { try await journal.set(job.key, label: job.label, .pending) }
        if plan.all.isEmpty { options.log("illustrate: every page already has its picture") }
        else { options.log("illustrate: \(plan.all.count) picture(s) to make with \(provider.name) (\(provider.model)), \(options.concurrency) at a time") }

        // Everything depends on the character's picture, so it is made alone, first.
        if let c = plan.character {
            await context.run(c)
            if await bookActor.mainCharacterImage() == nil, !options.noReference, await context.gate.halt != .interrupted {
                let reason = await context.counters.failures.last?.reason ?? "it was not made"
                let name = book.characters?.main?.name ?? "the main character"
                throw IllustrateError("the picture of the main character \(name) could not be made (\(reason)), so no page was requested: "
                                      + "every page is drawn from it. Run again to retry, or set characters.main.image to a picture of \(name), "
                                      + "or pass --no-reference to make the pages without it")
            }
        }
        if await context.gate.halt != .interrupted { await schedule(plan: plan, context: context) }

        let c = context.counters
        // Failures finish in whatever order the calls came back; the summary lists them in the plan's
        // order so the same run always reads the same.
        let order = Dictionary(plan.all.enumerated().map { ($1.label, $0) }, uniquingKeysWith: { first, _ in first })
        let failures = (await c.failures).enumerated()
            .sorted { (order[$0.element.label] ?? Int.max, $0.offset) < (order[$1.element.label] ?? Int.max, $1.offset) }
            .map(\.element)
        var summary = IllustrateSummary(bookFile: bookFile, journalFile: journalURL, needed: plan.all.count, calls: await c.calls,
                                        cacheHits: await c.cacheHits, resumed: await c.resumed, ready: await c.ready,
                                        failures: failures, skipped: plan.skipped.count)
        summary.postponed = await c.postponed
        summary.drafts = await c.drafts
        summary.warnings = await c.warnings
        if await context.gate.halt == .interrupted {
            summary.interrupted = true
            // Pictures of a run stopped before they were scheduled are left as well.
            summary.leftByInterruption = plan.all.count - (await c.finished)
        }
        summary.lines.forEach { options.log(redact($0, key: key)) }
        options.events?(.summary(summary))
        if case .fatal(let message)? = await context.gate.halt { throw IllustrateError(redact(message, key: key)) }
        if !summary.interrupted, summary.needed > 0, summary.ready == 0, summary.failures.count == summary.needed, let first = summary.failures.first {
            throw IllustrateError(redact("no picture was made: all \(summary.needed) failed (\(first.label): \(first.reason)); "
                                         + "see the reasons above, then run again", key: key))
        }
        return summary
    }

    /// Cover and first page first; the others in reading order once the first page (their style
    /// reference) is settled; never more than `concurrency` at once.
    static func schedule(plan: IllustrationPlan, context: JobContext) async {
        var ready = plan.first
        var gated = plan.rest
        if plan.firstPageJob == nil { ready += gated; gated = [] }
        let limit = context.options.concurrency
        await withTaskGroup(of: String.self) { group in
            var inFlight = 0
            while true {
                while inFlight < limit, !ready.isEmpty {
                    let job = ready.removeFirst()
                    inFlight += 1
                    try? await context.journal.set(job.key, label: job.label, .scheduled)
                    group.addTask { await context.run(job); return job.key }
                }
                guard let finished = await group.next() else { break }
                inFlight -= 1
                if finished == plan.firstPageJob { ready += gated; gated = [] }
                // Asked to finish: what has not started stays pending, for a later run.
                if await context.gate.halt == .interrupted { ready = []; gated = [] }
            }
        }
    }

    /// The book as planned: the pictures an earlier --no-reference or --draft run placed count as
    /// missing, so they are made anew (only while the book still holds those very files).
    static func withoutRemakes(_ book: Book, _ made: [String: String]) -> Book {
        var book = book
        if let image = made["cover"], case .path(image)? = book.cover?.photo { book.cover!.photo = nil }
        for (i, p) in book.pages.enumerated() {
            guard let image = made[p.id ?? "page-\(i + 1)"], var picture = p.picture, case .path(image)? = picture.image else { continue }
            picture.image = nil
            book.pages[i].picture = picture
        }
        return book
    }

    /// The trim (for aspect ratios) and the palette (for the local provider) from the book's theme.
    static func trimAndPalette(_ book: Book) -> (TrimSize, [String]) {
        var tokens: DesignTokens?
        if let resources = try? ResourceLocator.locate(),
           let theme = try? Theme.load(named: book.theme ?? Theme.defaultName(for: book.kind), from: resources.templates) {
            tokens = try? theme.tokens(overriddenBy: book.tokens)
        }
        let trim = (try? TrimSize.resolve(book.format?.trim, pageAspect: tokens?.sizing.pageAspect ?? "3:4")) ?? .default
        guard let p = tokens?.palette else { return (trim, []) }
        let accent = book.cover?.accent ?? p.accent.hex
        return (trim, [p.wash.hex, accent, p.muted.hex, p.spine.hex, p.ink.hex, p.background.hex])
    }
}

final class ResultBox: @unchecked Sendable {
    var result: Result<IllustrateSummary, any Error>?
}
