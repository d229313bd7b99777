import Foundation
import Synchronization
import BookBase
import BookConfig

/// Something that happened in a batch, as one JSON Lines record or a progress-bar step.
public enum BatchEvent: Sendable {
    case started(total: Int, shard: Shard, jobs: Int)
    case jobStarted(BatchJob)
    case jobFinished(JobResult, finished: Int, total: Int)
    case finished(BatchSummary)
}

/// Runs jobs `jobs` at a time, each on its own thread driving its own child process, and reports
/// every step to `report` (called from worker threads, one call at a time).
public struct BatchRunner: Sendable {
    public var runner: JobRunner
    public var jobs: Int
    /// bookrender's data the jobs render with (for the up-to-date check); nil when not found.
    var resources: ResourceLocator?

    /// `home`: the folder holding `templates/` and `fonts/`, as in `RenderSettings`.
    public init(runner: JobRunner, jobs: Int, home: URL? = nil) {
        self.runner = runner; self.jobs = max(1, jobs)
        resources = try? RenderSettings(home: home).resources()
    }

    public func run(_ list: [BatchJob], shard: Shard = .all, report: @escaping @Sendable (BatchEvent) -> Void) -> BatchSummary {
        let selected = shard.select(list)
        let start = Date()
        let serial = Mutex(())
        let emit: @Sendable (BatchEvent) -> Void = { e in serial.withLock { _ in report(e) } }
        emit(.started(total: list.count, shard: shard, jobs: jobs))
        let fingerprinter = Fingerprinter(executable: runner.executable, resources: resources)
        let next = Mutex(0)
        let results = Mutex<[Int: JobResult]>([:])
        let runner = self.runner, resources = self.resources
        let workers = min(jobs, max(1, selected.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            // Plain threads: each spends its life blocked on a child process, which would starve
            // the cooperative pool.
            let thread = Thread {
                defer { group.leave() }
                while true {
                    // A cancelled batch starts no new job.
                    guard TemporaryFiles.cancelSignal == nil else { return }
                    let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                    guard i < selected.count else { return }
                    let job = selected[i]
                    emit(.jobStarted(job))
                    let result = Self.runOne(job, runner: runner, fingerprinter: fingerprinter, resources: resources)
                    let done = results.withLock { r -> Int in r[i] = result; return r.count }
                    emit(.jobFinished(result, finished: done, total: selected.count))
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        // A cancel passes its signal on to the running exports; one that is still running after
        // a while (stuck, or started as the cancel began) is killed.
        var cancelledAt: Date?
        while group.wait(timeout: .now() + 0.1) == .timedOut {
            guard TemporaryFiles.cancelSignal != nil else { continue }
            let since = cancelledAt ?? Date()
            cancelledAt = since
            if Date().timeIntervalSince(since) > Self.cancelGrace { TemporaryFiles.signalChildren(SIGKILL) }
        }
        let all = results.withLock { r in (0..<selected.count).compactMap { r[$0] } }
        let summary = BatchSummary(shard: shard, manifestJobs: list.count, jobs: all, seconds: Date().timeIntervalSince(start))
        emit(.finished(summary))
        return summary
    }

    /// Seconds the running exports have to end after a cancel passed its signal on to them.
    static let cancelGrace = 10.0

    /// Ends the process by the signal a cancel began with (see `BookRenderKit.batchStopHandler`),
    /// once its summary is out; returns when no cancel has begun.
    public static func endIfCancelled() {
        if let signal = TemporaryFiles.cancelSignal { TemporaryFiles.signalHandler(signal) }
    }

    static func runOne(_ job: BatchJob, runner: JobRunner, fingerprinter: Fingerprinter, resources: ResourceLocator?) -> JobResult {
        let start = Date()
        // A job killed in an earlier run (SIGKILL, a scheduler's cancel) could not remove its
        // temporaries; left, they would pile up run after run.
        TemporaryFiles.Leftovers.removeStale(writing: [URL(fileURLWithPath: job.output)]
                                             + (job.options.png.map { [URL(fileURLWithPath: $0)] } ?? []))
        let fingerprint = fingerprinter.fingerprint(job, arguments: runner.exportArguments(job), resources: resources)
        if let state = JobState.isCurrent(output: job.output, fingerprint: fingerprint) {
            return JobResult(id: job.id, input: job.input, output: job.output, status: .skipped, pages: state.pages,
                             seconds: Date().timeIntervalSince(start), error: nil, exitCode: nil,
                             placeholders: state.placeholders, warnings: state.warnings)
        }
        // A stale state must not vouch for whatever the export leaves behind if it fails.
        unlink(JobState.url(for: job.output).path)
        var result = runner.run(job)
        result.seconds = Date().timeIntervalSince(start)
        if result.status == .done, let fingerprint,
           let size = (try? FileManager.default.attributesOfItem(atPath: job.output))?[.size] as? Int {
            do {
                try JobState(fingerprint: fingerprint, pages: result.pages, outputBytes: size,
                             placeholders: result.placeholders, warnings: result.warnings).write(for: job.output)
            } catch {
                result.error = "rendered, but \(error); the next run will render it again"
            }
        }
        return result
    }
}

/// The account of a run: one entry per job of this shard, in manifest order.
public struct BatchSummary: Codable, Sendable {
    public var shard: String
    public var manifestJobs: Int
    public var done: Int
    public var skipped: Int
    public var failed: Int
    /// Jobs a signal stopped while they ran (the batch was cancelled).
    public var cancelled: Int
    public var pages: Int
    /// Placeholders drawn in the books rendered or up to date.
    public var placeholders: Int
    public var seconds: Double
    public var jobs: [JobResult]

    public init(shard: Shard, manifestJobs: Int, jobs: [JobResult], seconds: Double) {
        self.shard = shard.description
        self.manifestJobs = manifestJobs
        self.jobs = jobs
        self.seconds = seconds
        done = jobs.filter { $0.status == .done }.count
        skipped = jobs.filter { $0.status == .skipped }.count
        failed = jobs.filter { $0.status == .failed }.count
        cancelled = jobs.filter { $0.status == .cancelled }.count
        pages = jobs.filter { $0.status == .done }.compactMap(\.pages).reduce(0, +)
        placeholders = jobs.compactMap(\.placeholders).reduce(0, +)
    }

    public func json(pretty: Bool) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// For people: one line per job that did not simply succeed, then the totals.
    public var text: String {
        var lines: [String] = []
        for j in jobs {
            if j.status == .failed {
                lines.append("FAILED  \(j.id) (\(j.input)): \(j.error ?? "unknown error")")
            } else if j.status == .cancelled {
                lines.append("CANCELLED \(j.id) (\(j.input)): \(j.error ?? "cancelled")")
            } else if let count = j.placeholders, count > 0 {
                lines.append("WARNING \(j.id) (\(j.input)): \(count) placeholder(s); \(j.warnings?.first ?? "")")
            }
        }
        let rate = seconds > 0 ? Double(pages) / seconds : 0
        lines.append(String(format: "%d job(s) in shard %@: %d rendered (%d pages), %d up to date, %d failed; %.1f s, %.1f pages/s",
                            jobs.count, shard, done, pages, skipped, failed, seconds, rate)
                     + (cancelled > 0 ? "; \(cancelled) cancelled" : "")
                     + (placeholders > 0 ? "; \(placeholders) placeholder(s)" : ""))
        return lines.joined(separator: "\n")
    }
}
