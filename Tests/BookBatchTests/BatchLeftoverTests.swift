import Foundation
import Testing
import BookTestSupport

/// A job that dies (a crash, a timeout's kill) cannot remove its own temporaries: the batch does,
/// found by the job's PID in their names. A batch that is stopped stops its jobs the same way.
@Suite(.serialized) struct BatchLeftoverTests {
    /// A manifest of one long job writing a PDF and page PNGs into `out/`.
    func longJob() throws -> (dir: URL, manifest: URL, out: URL) {
        let book = try OutputFixtures.sizeableMemoir()
        let dir = book.deletingLastPathComponent()
        let line = #"{"input": "book.json", "output": "out/book.pdf", "options": {"png": "out/pages", "dpi": 200}}"#
        let manifest = dir.appendingPathComponent("jobs.jsonl")
        try Data(line.utf8).write(to: manifest)
        return (dir, manifest, dir.appendingPathComponent("out"))
    }

    /// The PID of the job writing a temporary in `folders`, read from the temporary's name
    /// (`.NAME.partial-PID-N`), once there is one.
    func jobWriting(in folders: [URL], of batch: Process) -> pid_t? {
        var pid: pid_t?
        _ = OutputFixtures.wait(for: batch) {
            guard let name = OutputFixtures.temporaries(in: folders).first?.split(separator: "/").last,
                  let range = name.range(of: ".partial-") else { return false }
            pid = pid_t(name[range.upperBound...].prefix { $0.isNumber })
            return pid != nil
        }
        return pid
    }

    /// The batch, one job at a time with `flags`, and the temporary folder it and its jobs have
    /// to themselves; its stdout goes to `events` (a new file) when given.
    func startBatch(_ manifest: URL, flags: [String] = [], events: URL? = nil) throws -> (Process, scratch: URL) {
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["batch", manifest.path, "--jobs", "1"] + flags
        let scratch = try OutputFixtures.privateScratch(for: p)
        var output: FileHandle?
        if let events {
            _ = FileManager.default.createFile(atPath: events.path, contents: nil)
            output = try FileHandle(forWritingTo: events)
        }
        // The child keeps its own descriptor.
        defer { try? output?.close() }
        p.standardOutput = output ?? FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return (p, scratch)
    }

    /// A manifest of `lines` in the book's folder.
    func manifest(_ lines: [String], in dir: URL, named name: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url
    }

    /// The events a batch printed with `--events`, one object a line.
    func eventRecords(_ events: URL) throws -> [[String: Any]] {
        try String(contentsOf: events, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func aJobThatDiesHasItsTemporariesRemovedByTheBatch() throws {
        let (dir, manifest, out) = try longJob()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (batch, scratch) = try startBatch(manifest)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let job = try #require(jobWriting(in: [out], of: batch), "the job never wrote a temporary")
        kill(job, SIGKILL)
        try batch.waitForExit(within: 300, "the batch")
        #expect(batch.terminationStatus == 1, "the job failed, so the batch does")
        #expect(OutputFixtures.temporaries(in: [out, out.appendingPathComponent("pages")], process: job, scratch: scratch) == [])
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("book.pdf").path))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aStoppedBatchEndsByTheSignalAndLeavesNoTemporaries(signal: Int32) throws {
        let (dir, manifest, out) = try longJob()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (batch, scratch) = try startBatch(manifest)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let job = try #require(jobWriting(in: [out], of: batch), "the job never wrote a temporary")
        kill(batch.processIdentifier, signal)
        try batch.waitForExit(within: 300, "the batch")
        #expect(batch.terminationReason == .uncaughtSignal && batch.terminationStatus == signal,
                "ended with \(batch.terminationStatus)")
        #expect(OutputFixtures.temporaries(in: [out, out.appendingPathComponent("pages")], process: job, scratch: scratch) == [])
        #expect(OutputFixtures.temporaries(in: [], process: batch.processIdentifier, scratch: scratch) == [])
        // The job has ended too (gone, or a zombie no one reaps yet): nothing is left writing.
        let state = (try? String(contentsOfFile: "/proc/\(job)/stat", encoding: .utf8))?.split(separator: ")").last?.dropFirst().first
        #expect(state == nil || state == "Z", "the job is still running")
    }

    /// A container's command runs as PID 1, for which the kernel drops every signal the process
    /// has no handler for: bookrender must still stop on SIGTERM (what Kubernetes sends), not run
    /// on until the grace period's SIGKILL.
    @Test(.enabled(if: getuid() == 0, "a PID namespace needs root"))
    func asPIDOneABatchStillStopsOnSIGTERM() throws {
        let (dir, manifest, out) = try longJob()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        p.arguments = ["--fork", "--pid", "--mount-proc", try Repository.binary.path, "batch", manifest.path, "--jobs", "1"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        _ = try #require(jobWriting(in: [out], of: p), "the job never wrote a temporary")
        // unshare's child is the batch, PID 1 in its namespace.
        let children = (try? String(contentsOfFile: "/proc/\(p.processIdentifier)/task/\(p.processIdentifier)/children", encoding: .utf8)) ?? ""
        let batch = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        let status = try String(contentsOfFile: "/proc/\(batch)/status", encoding: .utf8)
        #expect(status.split(separator: "\n").contains { $0.hasPrefix("NSpid:") && $0.hasSuffix("\t1") }, "not PID 1: \(status)")
        kill(batch, SIGTERM)
        p.waitUntilExit()
        // Stopped, not finished: the long job's PDF was never written, and nothing is left half-written.
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("book.pdf").path), "the batch ran on to the end")
        #expect(OutputFixtures.temporaries(in: [out, out.appendingPathComponent("pages")]) == [])
    }

    /// Who a cancel signals, in which order.
    enum CancelOrder: String, CaseIterable, CustomTestStringConvertible {
        case batchAlone, batchThenJob, jobThenBatch
        var testDescription: String { rawValue }
    }

    /// A scheduler's cancel (Slurm's scancel signals every process of the job, the batch and its
    /// exports, one by one and in no set order) or a signal to the batch alone: the running export
    /// is reported cancelled, not crashed, no job starts after it, and the batch writes its summary
    /// and ends by the signal.
    @Test(arguments: CancelOrder.allCases)
    func aCancelledBatchReportsItsRunningJobCancelledAndStartsNoOther(order: CancelOrder) throws {
        let (dir, _, out) = try longJob()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = (1...3).map { #"{"input": "book.json", "output": "out/book\#($0).pdf", "options": {"png": "out/pages\#($0)", "dpi": 200}}"# }
        let events = dir.appendingPathComponent("events.jsonl"), summary = dir.appendingPathComponent("summary.json")
        let (batch, scratch) = try startBatch(try manifest(lines, in: dir, named: "three.jsonl"),
                                              flags: ["--events", "--report", summary.path], events: events)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let job = try #require(jobWriting(in: [out], of: batch), "the job never wrote a temporary")
        switch order {
        case .batchAlone: kill(batch.processIdentifier, SIGTERM)
        case .batchThenJob: kill(batch.processIdentifier, SIGTERM); kill(job, SIGTERM)
        case .jobThenBatch:
            // The export has ended (its temporaries gone) before the batch hears of the cancel.
            kill(job, SIGTERM)
            _ = OutputFixtures.wait(for: batch) { OutputFixtures.temporaries(in: [out], process: job, scratch: scratch) == [] }
            usleep(100_000)
            kill(batch.processIdentifier, SIGTERM)
        }
        try batch.waitForExit(within: 120, "the batch")
        #expect(batch.terminationReason == .uncaughtSignal && batch.terminationStatus == SIGTERM,
                "ended with \(batch.terminationStatus)")
        let records = try eventRecords(events)
        #expect(records.filter { $0["event"] as? String == "job-start" }.count == 1, "\(records)")
        let finished = records.filter { $0["event"] as? String == "job" }
        #expect(finished.count == 1 && finished.first?["status"] as? String == "cancelled", "\(finished)")
        #expect((finished.first?["error"] as? String)?.contains("SIGTERM") == true, "\(finished)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any]
        #expect(written?["cancelled"] as? Int == 1 && written?["failed"] as? Int == 0, "\(written ?? [:])")
        #expect(OutputFixtures.temporaries(in: [out], process: job, scratch: scratch) == [])
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("book2.pdf").path))
    }

    /// An export stopped by a signal meant for it alone (someone's `kill`, the system out of
    /// memory) is not a crash of the program and not a cancel of the batch: it is reported
    /// stopped, and the batch goes on.
    @Test func anExportStoppedFromOutsideIsReportedStoppedAndTheBatchGoesOn() throws {
        let (dir, _, out) = try longJob()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = [#"{"input": "book.json", "output": "out/stopped.pdf", "options": {"png": "out/pages", "dpi": 200}}"#,
                     #"{"input": "book.json", "output": "out/next.pdf"}"#]
        let events = dir.appendingPathComponent("events.jsonl")
        let (batch, scratch) = try startBatch(try manifest(lines, in: dir, named: "two.jsonl"), flags: ["--events"], events: events)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let job = try #require(jobWriting(in: [out], of: batch), "the job never wrote a temporary")
        kill(job, SIGTERM)
        try batch.waitForExit(within: 300, "the batch")
        #expect(batch.terminationReason == .exit && batch.terminationStatus == 1, "ended with \(batch.terminationStatus)")
        let finished = try eventRecords(events).filter { $0["event"] as? String == "job" }
        let status = Dictionary(finished.map { (URL(fileURLWithPath: $0["output"] as? String ?? "").lastPathComponent, $0) },
                                uniquingKeysWith: { a, _ in a })
        #expect(status["stopped.pdf"]?["status"] as? String == "failed", "\(finished)")
        let error = status["stopped.pdf"]?["error"] as? String ?? ""
        #expect(error.contains("stopped by SIGTERM") && !error.contains("crashed"), "\(error)")
        #expect(status["next.pdf"]?["status"] as? String == "done", "\(finished)")
        #expect(OutputFixtures.temporaries(in: [out], process: job, scratch: scratch) == [])
    }
}
