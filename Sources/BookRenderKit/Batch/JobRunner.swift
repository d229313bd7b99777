import Foundation
import BookBase
import BookConfig

/// How one job ended.
public struct JobResult: Codable, Sendable, Equatable {
    /// `cancelled`: a signal stopped the batch (a scheduler's cancel) while the job ran.
    public enum Status: String, Codable, Sendable { case done, skipped, failed, cancelled }
    public var id: String
    public var input: String
    public var output: String
    public var status: Status
    public var pages: Int?
    public var seconds: Double
    /// The export's error as it reported it, or why it could not be started or finished.
    public var error: String?
    public var exitCode: Int32?
    /// Pictures drawn as placeholders (a missing or not yet generated illustration); nil when the
    /// job did not render. A job with placeholders is done: `strict` in its options makes it fail.
    public var placeholders: Int?
    /// The export's warnings, each naming its page and place in the book.
    public var warnings: [String]?
}

/// Runs one job as a child process of the same binary (`bookrender export …`).
///
/// A child process rather than a thread: a book that crashes cairo, hangs in Pango or exhausts
/// memory takes down only its own job; each job gets a fresh font map and fontconfig state
/// without any care about sharing; its memory returns to the system when it ends; and the job
/// does exactly what `bookrender export` does, with its exit codes and messages.
public struct JobRunner: Sendable {
    public var executable: URL
    public var timeout: Double?
    /// More `bookrender export` flags (limits, `--fill-missing` and its provider, `--events`).
    public var extraArguments: [String] = []
    /// Where the export's stdout goes (its `--events` lines); nowhere when nil.
    public var stdout: URL?
    /// Where the export writes its report (kept); a scratch file removed afterwards when nil.
    public var report: URL?
    /// Told the child's PID once it runs, so a caller can stop it (cancel, shutdown).
    public var started: (@Sendable (Int32) -> Void)?
    /// The child's environment; this process's own when nil.
    public var environment: [String: String]?
    /// Seconds an export ended by a stop signal waits for this process's own cancel
    /// (`TemporaryFiles.cancelHandler`) before it is reported stopped from outside: a scheduler's
    /// cancel signals every process of a job one by one. 0 for a caller that stops its exports
    /// itself and knows why.
    public var cancelWait: Double = 2

    public init(executable: URL, timeout: Double? = nil) {
        self.executable = executable; self.timeout = timeout
    }

    public func exportArguments(_ job: BatchJob) -> [String] {
        // One thread per job for layout and rasterizing: the batch already runs --jobs books side by side.
        ["export", job.input, "-o", job.output] + job.options.arguments(profile: job.profile) + ["--workers", "1"]
            + extraArguments
    }

    public func run(_ job: BatchJob) -> JobResult {
        let start = Date()
        var result = JobResult(id: job.id, input: job.input, output: job.output, status: .failed, pages: nil, seconds: 0,
                               error: nil, exitCode: nil)
        do {
            try TemporaryFiles.withScratchFolder("batch") { scratch in
                try run(job, scratch: scratch, into: &result)
            }
        } catch {
            result.error = "could not run the export: \(AtomicOutput.reason(error))"
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    private func run(_ job: BatchJob, scratch: URL, into result: inout JobResult) throws {
        try AtomicOutput.makeFolder(URL(fileURLWithPath: job.output).deletingLastPathComponent())
        // The export writes its report there, or, when it fails, its error as JSON.
        let report = self.report ?? scratch.appendingPathComponent("report.json")
        let p = Process()
        let args = exportArguments(job) + ["--report", report.path]
        // The child dies with the batch (SIGKILL included), so no export outlives a stopped run.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--pdeathsig", "KILL", "--", executable.path] + args
        } else {
            p.executableURL = executable
            p.arguments = args
        }
        p.standardInput = FileHandle.nullDevice
        if let environment { p.environment = environment }
        var events: FileHandle?
        if let stdout {
            _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
            events = try FileHandle(forWritingTo: stdout)
        }
        defer { try? events?.close() }
        p.standardOutput = events ?? FileHandle.nullDevice
        // Kept for an export that ends before it can write its report: its error is the last
        // error it printed.
        let errors = scratch.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        p.standardError = errorHandle
        if let signal = TemporaryFiles.cancelSignal {
            result.status = .cancelled
            result.error = Self.cancelled(signal)
            return
        }
        try p.run()
        started?(p.processIdentifier)
        // A job that crashes or is killed leaves its temporaries, named with its PID beside
        // its outputs: the batch removes them when it ends, and a stopped batch stops the job
        // with the same signal, so it removes its own, then removes what is left.
        let outputs = [URL(fileURLWithPath: job.output)] + (job.options.png.map { [URL(fileURLWithPath: $0)] } ?? [])
        let leftovers = TemporaryFiles.Leftovers(ofProcess: p.processIdentifier, writing: outputs)
        let token = TemporaryFiles.track(childProcess: p.processIdentifier, leftovers: leftovers)
        defer {
            TemporaryFiles.forget(token)
            leftovers.remove()
        }
        // A cancel that began while the child was starting passed over it.
        if let signal = TemporaryFiles.cancelSignal { kill(p.processIdentifier, signal) }
        let timedOut = TimeoutFlag()
        if let timeout {
            let pid = p.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if p.isRunning { timedOut.set(); kill(pid, SIGKILL) }
            }
        }
        p.waitUntilExit()
        result.exitCode = p.terminationStatus
        let outcome = try? ExportOutcome.read(report)
        let stopSignal = p.terminationReason == .uncaughtSignal && Self.stopSignals[p.terminationStatus] != nil
        // A scheduler's cancel signals every process of the job, one by one: the export may die
        // of it before the batch's own signal arrives, and is then the cancel's, not a crash.
        if stopSignal, !timedOut.isSet, TemporaryFiles.cancelSignal == nil { Self.awaitCancel(within: cancelWait) }
        if p.terminationReason == .uncaughtSignal, !timedOut.isSet, let signal = TemporaryFiles.cancelSignal {
            result.status = .cancelled
            result.error = Self.cancelled(signal)
        } else if p.terminationReason == .uncaughtSignal, timedOut.isSet {
            result.error = "timed out after \(timeout ?? 0) s and was stopped"
        } else if stopSignal {
            // SIGKILL from outside is most often the kernel's, out of memory.
            let why = p.terminationStatus == SIGKILL ? " (the system kills a process so when it runs out of memory)" : ""
            result.error = "the export was stopped by \(Self.name(of: p.terminationStatus)) from outside the batch\(why); "
                + "run the batch again to render it"
        } else if p.terminationReason == .uncaughtSignal {
            result.error = "the export crashed (signal \(p.terminationStatus)); run `bookrender export \(job.input)` alone to see why"
        } else if p.terminationStatus != 0 {
            result.error = outcome?.error?.message ?? Self.lastError(in: errors)
                ?? "exit \(p.terminationStatus) without a report"
        } else if let report = outcome?.report {
            result.status = .done
            result.pages = report.pageCount
            result.placeholders = report.placeholders.count
            let warnings = report.findings.filter { $0.severity != .error }.map(\.description)
            result.warnings = warnings.isEmpty ? nil : warnings
        } else {
            result.error = "the export succeeded but wrote no report"
        }
    }
}

extension JobRunner {
    /// Signals that stop a process on someone's request rather than because it failed.
    static let stopSignals: [Int32: String] = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGKILL: "SIGKILL"]

    static func name(of signal: Int32) -> String { stopSignals[signal] ?? "signal \(signal)" }

    static func cancelled(_ signal: Int32) -> String { "cancelled by \(name(of: signal)) before it finished" }

    /// Waits until a cancel has begun or `seconds` have passed.
    static func awaitCancel(within seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while TemporaryFiles.cancelSignal == nil, Date() < end { usleep(10_000) }
    }

    /// The last line the export printed as an error ("error: …", or ArgumentParser's "Error: …"),
    /// without its prefix; nil when it printed none. Only the file's end is read.
    static func lastError(in file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 65_536 ? size - 65_536 : 0)
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        for line in text.split(separator: "\n").reversed() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("error:") else { continue }
            let message = trimmed.dropFirst("error:".count).trimmingCharacters(in: .whitespaces)
            if !message.isEmpty { return message }
        }
        return nil
    }
}

private final class TimeoutFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
