import Foundation
import BookRenderKit

/// Takes queued jobs from the store and renders them, each in its own `bookrender export` child,
/// at most `workers` at once. Each free worker goes to the client with the fewest books running
/// (the oldest job among equals), and with `perClient` no client gets more than that many. Every
/// change of a job's state is in the store before anyone is told of it.
actor JobScheduler {
    let store: JobStore
    let config: ServeConfiguration
    private var running: [String: (client: String, child: ChildHandle)] = [:]
    private(set) var draining = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var metrics = ServeMetrics()

    init(store: JobStore, config: ServeConfiguration) {
        self.store = store; self.config = config
    }

    /// After a crash or a restart: jobs left running are queued again. Their export starts over and
    /// rewrites its outputs atomically; with fillMissing, the illustrate journal and the picture
    /// cache skip every picture already made. What the killed exports were writing is removed,
    /// and so is every job folder the database does not know (a request cut short by the crash).
    func recover() throws {
        for var job in try store.jobs(in: .running) {
            job.state = .queued
            try store.update(job)
        }
        let known = try store.ids()
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: config.jobsFolder.path)) ?? []
        for name in folders {
            let folder = JobFolder(jobs: config.jobsFolder, id: name)
            guard known.contains(name) else {
                try? FileManager.default.removeItem(at: folder.root)
                continue
            }
            JobLeftovers.remove(in: folder)
        }
    }

    func submit(_ job: JobRecord) throws {
        try store.insert(job)
        pump()
    }

    var busy: Int { running.count }

    func pump() {
        guard !draining else { return }
        guard running.count < config.workers, var waiting = try? store.jobs(in: .queued) else { return }
        while running.count < config.workers {
            var ofClient: [String: Int] = [:]
            for r in running.values { ofClient[r.client, default: 0] += 1 }
            let eligible = waiting.indices.filter { i in config.perClient.map { (ofClient[waiting[i].client] ?? 0) < $0 } ?? true }
            guard let next = eligible.min(by: { ((ofClient[waiting[$0].client] ?? 0), $0) < ((ofClient[waiting[$1].client] ?? 0), $1) }) else { break }
            start(waiting.remove(at: next))
        }
    }

    private func start(_ queued: JobRecord) {
        var job = queued
        job.state = .running
        job.started = Date()
        job.attempts += 1
        job.error = nil
        do { try store.update(job) } catch { return }
        let child = ChildHandle()
        running[job.id] = (job.client, child)
        let runner = makeRunner(job, child: child)
        let folder = JobFolder(jobs: config.jobsFolder, id: job.id)
        let batchJob = BatchJob(id: job.id, index: 0, input: job.book, output: folder.pdf.path,
                                profile: job.options.profile,
                                options: JobOptions(theme: job.options.theme, strict: job.options.strict, force: job.options.force,
                                                    png: job.options.wantsPNG ? folder.pages.path : nil,
                                                    dpi: job.options.wantsPNG ? job.options.pngDPI : nil))
        // A thread of its own: it waits on the child, and the child's death signal is tied to it.
        var preview: (JobRunner, BatchJob)?
        if job.options.wantsFirstPage {
            var firstRunner = runner
            firstRunner.report = folder.preview.appendingPathComponent("report.json")
            preview = (firstRunner, BatchJob(id: job.id, index: 0, input: job.book, output: folder.previewPDF.path,
                                             options: JobOptions(theme: job.options.theme, strict: job.options.strict, png: folder.preview.path,
                                                                 dpi: job.options.dpi ?? 150, pages: "1")))
        }
        let id = job.id, first = preview, timeout = config.jobTimeout
        let thread = Thread { [self] in
            let start = Date()
            // Page 1 first: the same pixels as the whole export's page 1, ready well before it. With
            // fillMissing this run makes the pictures, and the whole export finds them in the journal.
            if let (firstRunner, firstJob) = first, child.stopReason == nil { _ = firstRunner.run(firstJob) }
            // The job's time limit holds for both runs together.
            var whole = runner
            whole.timeout = timeout.map { max($0 - Date().timeIntervalSince(start), 0.001) }
            let result = whole.run(batchJob)
            Task { await self.finish(id, result, child.stopReason) }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func makeRunner(_ job: JobRecord, child: ChildHandle) -> JobRunner {
        let folder = JobFolder(jobs: config.jobsFolder, id: job.id)
        var runner = JobRunner(executable: config.executable, timeout: config.jobTimeout)
        // The service stops its exports itself (cancel, checkpoint) and knows which it stopped.
        runner.cancelWait = 0
        var extra = config.limitArguments + ["--events"]
        if let n = job.options.preview { extra += ["--preview", "\(n)"] }
        if job.options.fillMissing == true {
            extra += ["--fill-missing", "--provider", job.options.provider ?? "local", "--cache", config.cacheFolder.path]
            if let m = job.options.model { extra += ["--model", m] }
            if let n = job.options.maxImages { extra += ["--max-images", "\(n)"] }
            if let r = job.options.resolution { extra += ["--resolution", r] }
            if let base = config.providerBaseURL { extra += ["--base-url", base] }
        }
        runner.extraArguments = extra
        runner.stdout = folder.events
        runner.report = folder.report
        runner.started = { pid in child.started(pid) }
        // The export's scratch goes in the job's folder: it leaves with the job, and what a killed
        // export leaves there is found and removed when the service starts again.
        try? FileManager.default.createDirectory(at: folder.scratch, withIntermediateDirectories: true)
        runner.environment = ChildEnvironment.make(scratch: folder.scratch)
        return runner
    }

    private func finish(_ id: String, _ result: JobResult, _ stop: ChildHandle.Stop?) {
        running[id] = nil
        defer {
            if running.isEmpty { idleWaiters.forEach { $0.resume() }; idleWaiters = [] }
            pump()
        }
        guard var job = try? store.job(id) else { return }
        switch stop {
        case .checkpoint:
            job.state = .queued
        case .cancel:
            job.state = .cancelled
            job.finished = Date()
        case nil:
            job.finished = Date()
            job.pages = result.pages
            job.placeholders = result.placeholders
            job.warnings = result.warnings
            if result.status == .done {
                job.state = .done
            } else {
                job.state = .failed
                let code = failureCode(result, job: job)
                var message = result.error ?? "the export failed"
                if code == "timedOut", let limit = config.jobTimeout {
                    message = "the job ran longer than the service's limit of \(String(format: "%g", limit)) s (its --job-timeout) and was stopped"
                }
                job.error = .init(code: code, message: message)
            }
            let total = result.seconds
            let render = renderSeconds(job)
            job.renderSeconds = render ?? total
            metrics.record(job: job, seconds: total, render: render)
        }
        try? store.update(job)
        if job.state.isFinal {
            try? FileManager.default.removeItem(at: JobFolder(jobs: config.jobsFolder, id: id).scratch)
            sweep()
        }
    }

    private func renderSeconds(_ job: JobRecord) -> Double? {
        let folder = JobFolder(jobs: config.jobsFolder, id: job.id)
        guard let outcome = try? ExportOutcome.read(folder.report), let report = outcome.report else { return nil }
        return report.timings.reduce(0) { $0 + $1.seconds }
    }

    private func failureCode(_ result: JobResult, job: JobRecord) -> String {
        let folder = JobFolder(jobs: config.jobsFolder, id: job.id)
        if let kind = (try? ExportOutcome.read(folder.report))?.error?.kind { return kind.rawValue }
        if let e = result.error, e.hasPrefix("timed out") { return "timedOut" }
        if let e = result.error, e.hasPrefix("the export crashed") { return "crashed" }
        if let e = result.error, e.hasPrefix("the export was stopped") { return "stopped" }
        return "exportFailed"
    }

    /// Cancels a queued or running job; a finished one is left as it is.
    func cancel(_ id: String) throws -> JobRecord? {
        guard var job = try store.job(id) else { return nil }
        if job.state == .queued {
            job.state = .cancelled
            job.finished = Date()
            try store.update(job)
        } else if job.state == .running, let child = running[id]?.child {
            child.stop(.cancel)
        }
        return job
    }

    /// Removes a finished job: its record and its folder. A queued or running one is left (nil),
    /// and so is one whose files Lulu may still download for its order.
    func remove(_ id: String) throws -> JobRecord? {
        guard let job = try store.job(id), job.state.isFinal,
              OrderHold.reason(JobFolder(jobs: config.jobsFolder, id: id)) == nil else { return nil }
        // The record first: a folder without one is removed when the service starts, never the reverse.
        try store.delete(id)
        sizes[id] = nil
        try? FileManager.default.removeItem(at: JobFolder(jobs: config.jobsFolder, id: id).root)
        return job
    }

    /// Bytes of each finished job's folder, measured once: nothing writes there any more.
    private var sizes: [String: Int] = [:]

    /// Holds the data folder to `--keep` and `--max-data-bytes`: finished jobs past their age are
    /// removed, then, while the job folders hold more than the limit, the finished ones that
    /// finished first. Queued and running jobs are never removed.
    func sweep(now: Date = Date()) {
        guard config.keep != nil || config.maxDataBytes != nil,
              let finished = try? store.jobs(in: [.done, .failed, .cancelled]) else { return }
        var kept = finished.sorted { ($0.finished ?? $0.created) < ($1.finished ?? $1.created) }
        if let keep = config.keep {
            let cutoff = now.addingTimeInterval(-keep)
            while let oldest = kept.first, (oldest.finished ?? oldest.created) < cutoff {
                _ = try? remove(oldest.id)
                kept.removeFirst()
            }
        }
        guard let limit = config.maxDataBytes else { return }
        var total = 0
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: config.jobsFolder.path)) ?? []
        let final = Set(kept.map(\.id))
        for name in folders {
            let root = JobFolder(jobs: config.jobsFolder, id: name).root
            if final.contains(name) {
                if sizes[name] == nil { sizes[name] = FolderSize.bytes(root) }
                total += sizes[name]!
            } else {
                total += FolderSize.bytes(root)
            }
        }
        while total > limit, let oldest = kept.first {
            let freed = sizes[oldest.id] ?? 0
            if (try? remove(oldest.id)) != nil { total -= freed }
            kept.removeFirst()
        }
    }

    /// SIGTERM: no job starts any more; running ones get `grace` seconds to finish, then are
    /// stopped and queued again (a checkpoint: the next start resumes them).
    func drain(grace: Double) async {
        draining = true
        if !running.isEmpty {
            await waitIdle(upTo: grace)
        }
        guard !running.isEmpty else { return }
        for (_, r) in running { r.child.stop(.checkpoint) }
        await waitIdle(upTo: 10)
        for (_, r) in running { r.child.forceKill() }
        await waitIdle(upTo: 5)
    }

    private func waitIdle(upTo seconds: Double) async {
        let deadline = Date().addingTimeInterval(seconds)
        while !running.isEmpty, Date() < deadline {
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
    }
}
