import ArgumentParser
import Foundation

import BookRenderKit

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render many books: a JSON Lines manifest or a folder of books, several at a time.",
        discussion: """
        Each book is rendered by its own `bookrender export` process, so a book that fails (or \
        crashes) fails alone. A job whose inputs (book, images, options, renderer) are unchanged \
        since its PDF was written is skipped. Events go to stdout as JSON Lines unless both \
        stdout and stderr are a terminal, where a progress bar is drawn instead. Exit codes: 0 \
        every job rendered or up to date, 1 at least one job failed, 64 bad command line (a \
        manifest key that does nothing among them), 66 the manifest or folder cannot be read. --json prints the summary instead of the events. See \
        docs/batch.md and `bookrender --help`.
        """)

    @Argument(help: "A manifest (.jsonl: one {\"input\", \"output\", \"profile\", \"options\"} per line) or a folder of books.")
    var source: String

    @Option(name: .customLong("output-dir"), help: "For a folder of books: where the PDFs go (NAME.pdf).")
    var outputDir: String?

    @Option(name: .long, help: "Books rendered at the same time (default: one per core).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Run only part of the jobs: K/N takes every job whose manifest position i has i mod N = K-1.")
    var shard: String?

    @Option(name: .long, help: "Split into N shards and pick this run's from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (0-based).")
    var shards: Int?

    @Option(name: .long, help: "For a folder of books: the print profile for every book.")
    var profile: String?

    @Option(name: .long, help: "For a folder of books: also write page PNGs (NAME-pages/) at this DPI.")
    var pngDpi: Double?

    @Option(name: .long, help: "Stop a job that runs longer than this many seconds (it fails; the rest go on).")
    var timeout: Double?

    @Option(name: [.customLong("report"), .customLong("summary")],
            help: "Write the summary (per-job status, pages, time, errors) as JSON to this file, - for stdout (--summary is the older name).")
    var summary: String?

    @OptionGroup var jsonFlags: JSONFlags

    @Flag(name: .long, help: "JSON Lines events on stdout even on a terminal.")
    var events = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if shard != nil && shards != nil { throw ValidationError("give --shard K/N or --shards N, not both") }
        if let timeout, timeout <= 0 { throw ValidationError("--timeout must be positive") }
        if summary == "-", jsonFlags.json { throw ValidationError("--json and --report - both print the summary on stdout; give one") }
        if events, jsonFlags.json || summary == "-" {
            throw ValidationError("--events and the JSON summary would share stdout: write the summary with --report FILE")
        }
    }

    func run() throws {
        // A signal lets the running exports end and be reported before the batch ends by it.
        Interruption.install(BookRenderKit.batchStopHandler)
        let sourceURL = URL(fileURLWithPath: source)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: sourceURL.path, isDirectory: &isDir) else {
            Console.error("error: \(source) does not exist")
            throw ExitCode(66)
        }
        let part: Shard
        let list: [BatchJob]
        do {
            if let shard { part = try Shard(parsing: shard) }
            else if let shards { part = try Shard(count: shards, environment: ProcessInfo.processInfo.environment) }
            else { part = .all }
        } catch { throw ValidationError("\(error)") }
        do {
            if isDir.boolValue {
                guard let outputDir else { throw ValidationError("a folder of books needs --output-dir") }
                let options = JobOptions(png: pngDpi == nil ? nil : "", dpi: pngDpi)
                list = try Manifest.read(folder: sourceURL, outputFolder: URL(fileURLWithPath: outputDir), profile: profile, options: options)
            } else {
                list = try Manifest.read(jsonLines: sourceURL)
            }
        } catch let e as BatchError {
            Console.error("error: \(e)")
            throw ExitCode(e.usage ? 64 : 66)
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let output = ResultOutput(command: "batch", json: jsonFlags.json, report: summary)
        do throws(BookRenderError) {
            var involved: [ReportTarget.Involved] = [.input(sourceURL, isDir.boolValue ? "the folder of books" : "the manifest")]
            for job in list {
                involved.append(.input(URL(fileURLWithPath: job.input), "the book of \(job.id)"))
                involved.append(.output(URL(fileURLWithPath: job.output), "the PDF of \(job.id)"))
            }
            try output.checkReport(against: involved)
        } catch {
            throw output.fail(error)
        }
        let console = BatchConsole(style: events ? .jsonLines : BatchConsole.defaultStyle)
        let result = BatchRunner(runner: JobRunner(executable: executable, timeout: timeout), jobs: jobs)
            .run(list, shard: part) { event in
                // The summary is stdout's one object; a terminal still gets its progress bar.
                if !output.toStdout || console.style == .progressBar { console.handle(event) }
            }
        var summaryFailed = false
        do throws(BookRenderError) {
            if let file = output.reportFile {
                // The folder is made as for any output: a scheduler's array starts with none.
                do {
                    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw BookRenderError(.unwritableOutput, "cannot make the folder \(file.deletingLastPathComponent().path): \(error.localizedDescription)")
                }
            }
            try output.emit(BatchResult(result))
        } catch {
            summaryFailed = true
            Console.error("error: cannot write the summary \(summary ?? "-"): \(error.message)")
        }
        Console.error(result.text)
        BatchRunner.endIfCancelled()
        if result.failed > 0 { throw ExitCode(1) }
        // Whoever asked for the summary reads it to know what happened: without it the run failed.
        if summaryFailed { throw ExitCode(73) }
    }
}

/// The summary as `--json` prints it: every failed job is also a finding.
struct BatchResult: Encodable {
    var summary: BatchSummary
    init(_ summary: BatchSummary) { self.summary = summary }

    private enum Keys: String, CodingKey { case findings }
    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(summary.jobs.filter { $0.status == .failed }.map { job in
            Diagnostic(.error, stage: .load, kind: "jobFailed", message: "\(job.input): \(job.error ?? "failed")", file: job.input)
        }, forKey: .findings)
    }
}
