import Foundation
import BookModel
import BookResolve

/// One picture from references to stored file: journal, cache, calls, retries.
struct JobContext: Sendable {
    let provider: any ImageProvider
    let builder: PromptBuilder
    let book: BookFile
    let journal: Journal
    let options: IllustrateOptions
    let plan: IllustrationPlan
    let counters: RunCounters
    let total: Int
    /// Only for redacting messages.
    let key: String

    func log(_ line: String) { options.log(redact(line, key: key)) }

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
        return GenerationRequest(job: job, prompt: prompt, references: refs, resolution: options.resolution)
    }

    func address(of request: GenerationRequest) -> String {
        IllustrationCache.address(provider: provider.name, model: provider.model, size: provider.sizeKey(for: request),
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
                try await book.apply(image, to: job)
                await counters.resume()
                return await finish(job, ok: true, note: "ready (resumed: \(image))")
            }
            if let data = options.cache.get(address), (try? ImageProbe.probe(data)) != nil {
                await counters.hit()
                return try await store(data, job: job, address: address, note: "ready (cache)", unreferenced: unreferenced)
            }
            for attempt in 1...max(1, options.retry.maxAttempts) {
                try await journal.set(job.key, label: job.label, .generating, attempt: attempt)
                await counters.call()
                do {
                    var data = try await provider.generate(request)
                    if (try? ImageProbe.probe(data)) == nil {
                        data = Data()
                        throw ProviderFailure(.retryable, "\(provider.name) sent bytes that are not a PNG or JPEG image")
                    }
                    options.cache.put(address, data)
                    return try await store(data, job: job, address: address, note: attempt > 1 ? "ready after \(attempt) attempts" : "ready",
                                           unreferenced: unreferenced)
                } catch let failure as ProviderFailure {
                    let reason = redact(failure.reason, key: key)
                    guard failure.isRetryable, attempt < options.retry.maxAttempts else {
                        let why = failure.isRetryable ? "\(reason) (gave up after \(attempt) attempts)" : reason
                        return await fail(job, why)
                    }
                    let delay = options.retry.delay(afterAttempt: attempt, hint: failure.retryAfter)
                    try await journal.set(job.key, label: job.label, .retrying, attempt: attempt + 1, reason: reason)
                    log("illustrate: \(job.label): \(reason); retry \(attempt + 1) of \(options.retry.maxAttempts) in \(String(format: "%.2f", delay)) s")
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                }
            }
        } catch {
            await fail(job, redact("\(error)", key: key))
        }
    }

    private func store(_ data: Data, job: IllustrationJob, address: String, note: String, unreferenced: Bool = false) async throws {
        let path = try await book.store(data, for: job)
        try await journal.set(job.key, label: job.label, unreferenced ? .unreferenced : .ready, image: path, request: address)
        try await book.apply(path, to: job)
        await finish(job, ok: true, note: "\(note)\(unreferenced ? " without the main character's picture" : "") → \(path)")
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
