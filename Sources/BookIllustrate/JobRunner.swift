import Foundation
import BookHTTP
import BookModel
import BookResolve

/// One picture from references to stored file: journal, cache, calls, retries.
struct JobContext: Sendable {
    let provider: any ImageProvider
    /// Makes the pages and cover of a --draft run; nil otherwise.
    var draftProvider: (any ImageProvider)? = nil
    let builder: PromptBuilder
    let book: BookFile
    let journal: Journal
    let options: IllustrateOptions
    let plan: IllustrationPlan
    let counters: RunCounters
    let total: Int
    /// Only for redacting messages.
    let key: String
    var gate = CallGate(confirmed: true)

    func log(_ line: String) { options.log(redact(line, key: key)) }

    /// Drafts are pages and cover; the main character's picture is always made for print.
    func isDraft(_ job: IllustrationJob) -> Bool { draftProvider != nil && job.kind != .character }
    func maker(for job: IllustrationJob) -> any ImageProvider { isDraft(job) ? draftProvider! : provider }

    /// The main character's picture for every page; the first page as a style reference once it exists.
    func references(for job: IllustrationJob) async -> [ReferenceImage] {
        var refs: [ReferenceImage] = []
        if job.kind == .character {
            if let (d, o) = await book.coverPhoto() { refs.append(ReferenceImage(role: .photo, data: d, origin: o)) }
            return refs
        }
        if let (d, o) = await book.mainCharacterImage() { refs.append(ReferenceImage(role: .mainCharacter, data: d, origin: o)) }
        if let first = plan.firstPageIndex, job.pageIndex != first, let (d, o) = await book.pageImage(first) {
            refs.append(ReferenceImage(role: .style, data: d, origin: o))
        }
        return refs
    }

    func request(for job: IllustrationJob) async -> GenerationRequest {
        let refs = await references(for: job)
        let prompt = builder.prompt(for: job, hasCharacterReference: refs.contains { $0.role == .mainCharacter },
                                    hasStyleReference: refs.contains { $0.role == .style })
        return GenerationRequest(job: job, prompt: prompt, references: refs, resolution: isDraft(job) ? .preview : options.resolution)
    }

    func address(of request: GenerationRequest) -> String {
        let provider = maker(for: request.job)
        return IllustrationCache.address(provider: provider.name, model: provider.model, size: provider.sizeKey(for: request),
                                  prompt: request.prompt, references: request.references.map(\.hash))
    }

    /// A page or cover asked for without the main character's picture the book declares.
    func lacksReference(_ job: IllustrationJob, _ request: GenerationRequest) async -> Bool {
        guard job.kind != .character, await book.book.characters?.main != nil else { return false }
        return !request.references.contains { $0.role == .mainCharacter }
    }

    func run(_ job: IllustrationJob) async {
        let request = await request(for: job)
        let address = address(of: request)
        let unreferenced = await lacksReference(job, request)
        if unreferenced, !options.noReference {
            return await fail(job, "the main character's picture is missing, so this picture was not asked for (--no-reference makes it without)")
        }
        do {
            if let image = await journal.reusable(job.key, request: address, folder: book.folder) {
                if let problem = PictureCheck.problem(file: book.folder.appendingPathComponent(image), for: request) {
                    log("illustrate: \(job.label) (\(job.key)): \(image), made by an earlier run, is not a usable picture (\(problem)); it is made again")
                } else {
                    await journal.resumed(job.key)
                    try await book.apply(image, to: job)
                    await counters.resume()
                    return await finish(job, ok: true, note: "ready (resumed: \(image))")
                }
            }
            if let data = options.cache.get(address) {
                switch PictureCheck.check(data, for: request) {
                case .failure(let problem):
                    options.cache.remove(address)
                    log("illustrate: \(job.label) (\(job.key)): the cached picture is not a usable picture (\(problem)); dropped from the cache, it is made again")
                case .success:
                    await counters.hit()
                    return try await store(data, job: job, address: address, note: "ready (cache)", unreferenced: unreferenced)
                }
            }
            for attempt in 1...max(1, options.retry.maxAttempts) {
                if let halt = await gate.enter() { return await halted(job, halt) }
                try await journal.set(job.key, label: job.label, .generating, attempt: attempt)
                do {
                    let data: Data
                    switch await call(request, maker(for: job)) {
                    case .success(let d): data = d; await counters.call()
                    case .failure(let f): if f.sent { await counters.call() }; throw f
                    }
                    await gate.answered()
                    let source = maker(for: job)
                    switch PictureCheck.check(data, for: request) {
                    case .failure(let problem):
                        throw ProviderFailure(.retryable, "\(source.name) sent a picture that cannot be used: \(problem)")
                    case .success(let info):
                        if let note = PictureCheck.shapeNote(info, asked: source.askedShape(for: request)) {
                            log("illustrate: \(job.label) (\(job.key)): \(note)")
                            await counters.warn(job.label, note)
                        }
                    }
                    options.cache.put(address, data)
                    return try await store(data, job: job, address: address, note: attempt > 1 ? "ready after \(attempt) attempts" : "ready",
                                           unreferenced: unreferenced)
                } catch let failure as ProviderFailure {
                    let reason = redact(failure.reason, key: key)
                    // The halt is set before the next call may go out.
                    let halt = await haltFor(failure, reason: reason)
                    if [.badKey, .unreachable, .tlsFailed].contains(failure.kind) { await gate.unanswered() } else { await gate.answered() }
                    if let halt {
                        if case .fatal = halt { return await fail(job, reason) }
                        return await halted(job, halt)
                    }
                    guard failure.isRetryable, attempt < options.retry.maxAttempts else {
                        let why = failure.isRetryable ? "\(reason) (gave up after \(attempt) attempts)" : reason
                        return await fail(job, why)
                    }
                    // No retry follows a halt: the page is left for a later run at once.
                    if let halt = await gate.halt { return await halted(job, halt) }
                    let delay = options.retry.delay(afterAttempt: attempt, hint: failure.retryAfter)
                    try await journal.set(job.key, label: job.label, .retrying, attempt: attempt + 1, reason: reason)
                    log("illustrate: \(job.label): \(reason); retry \(attempt + 1) of \(options.retry.maxAttempts) in \(String(format: "%.2f", delay)) s")
                    await gate.pause(delay)
                }
            }
        } catch {
            await fail(job, redact("\(error)", key: key))
        }
    }

    private func call(_ request: GenerationRequest, _ provider: any ImageProvider) async -> Result<Data, ProviderFailure> {
        do throws(ProviderFailure) { return .success(try await provider.generate(request)) } catch { return .failure(error) }
    }

    /// A failure after which no call of this run can succeed: a rejected key, a provider that
    /// cannot be reached for a while, a wait longer than `--max-wait`.
    private func haltFor(_ failure: ProviderFailure, reason: String) async -> Halt? {
        let halt: Halt
        switch failure.kind {
        case .badKey:
            let variable = options.provider.name.keyVariable.map { "check \($0)" } ?? "check the key"
            halt = .fatal("\(provider.name) rejected the key (\(reason)); \(variable) and run again; no further picture was requested")
        case .unreachable:
            let tally = await gate.connectionFailed(limit: options.retry.connectionAttempts, budget: options.retry.connectionBudget)
            guard tally.give else { return nil }
            halt = .fatal("cannot reach \(provider.name) at \(options.provider.baseURL): \(tally.count) connection attempt(s) in a row failed "
                          + "over \(Int(tally.seconds.rounded())) s (last: \(reason)); check --base-url, the network or the proxy, then run again")
        case .tlsFailed:
            halt = .fatal("cannot reach \(provider.name) at \(options.provider.baseURL) over TLS (\(reason)); check that --base-url names "
                          + "an https server whose certificate this machine trusts (a plain-HTTP server on this machine takes http://), "
                          + "then run again; no further picture was requested")
        case .retryable:
            guard let wait = failure.retryAfter, wait > options.retry.maxWait else { return nil }
            halt = .rateLimited(until: Date().addingTimeInterval(wait.rounded(.up)))
        default:
            return nil
        }
        await gate.stop(halt)
        return halt
    }

    /// A page the run will not make now: left pending, so a later run makes it.
    private func halted(_ job: IllustrationJob, _ halt: Halt) async {
        switch halt {
        case .fatal:
            try? await journal.set(job.key, label: job.label, .pending, reason: "not started: the run stopped")
        case .rateLimited(let until):
            let reason = "rate limited until \(Halt.time(until)); run again to resume"
            try? await journal.set(job.key, label: job.label, .pending, reason: reason)
            await counters.postpone(job.label, reason)
            log("illustrate: \(job.label) (\(job.key)): \(reason)")
        case .interrupted:
            try? await journal.set(job.key, label: job.label, .pending, reason: "not made: the run was interrupted; run again to make it")
        }
    }

    private func store(_ data: Data, job: IllustrationJob, address: String, note: String, unreferenced: Bool = false) async throws {
        let path = try await book.store(data, for: job)
        let state: JournalEntry.State = unreferenced ? .unreferenced : isDraft(job) ? .draft : .ready
        try await journal.set(job.key, label: job.label, state, image: path, request: address)
        try await book.apply(path, to: job)
        if state == .draft { await counters.drafted() }
        await finish(job, ok: true, note: "\(note)\(unreferenced ? " without the main character's picture" : "")\(state == .draft ? " (draft)" : "") → \(path)")
    }

    private func fail(_ job: IllustrationJob, _ reason: String) async {
        try? await journal.set(job.key, label: job.label, .failed, reason: reason)
        await counters.fail(job.label, reason)
        await finish(job, ok: false, note: "failed: \(reason); its placeholder stays")
    }

    private func finish(_ job: IllustrationJob, ok: Bool, note: String) async {
        let n = await counters.done(ok)
        log("illustrate: [\(n)/\(total)] \(job.label) (\(job.key)): \(note)")
    }
}
