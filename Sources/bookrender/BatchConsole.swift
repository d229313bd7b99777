import Foundation
import BookRenderKit

/// Prints a batch's events: JSON Lines on stdout for machines, or a one-line progress bar on a
/// terminal's stderr for people.
public final class BatchConsole: @unchecked Sendable {
    public enum Style: Sendable { case jsonLines, progressBar }
    let style: Style
    // Only called through BatchRunner's serialized `report`, so no lock of its own.
    private var running: [String] = []
    private var counts = (done: 0, skipped: 0, failed: 0)

    public init(style: Style) { self.style = style }

    public static var defaultStyle: Style { isatty(STDERR_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 ? .progressBar : .jsonLines }

    public func handle(_ event: BatchEvent) {
        switch style {
        case .jsonLines: emitJSON(event)
        case .progressBar: draw(event)
        }
    }

    private func emitJSON(_ event: BatchEvent) {
        var object: [String: Any]
        switch event {
        case .started(let total, let shard, let jobs):
            object = ["event": "start", "manifestJobs": total, "shard": shard.description, "parallel": jobs]
        case .jobStarted(let job):
            object = ["event": "job-start", "id": job.id, "input": job.input, "output": job.output]
        case .jobFinished(let r, let finished, let total):
            object = ["event": "job", "id": r.id, "input": r.input, "output": r.output, "status": r.status.rawValue,
                      "seconds": (r.seconds * 1000).rounded() / 1000, "finished": finished, "of": total]
            if let p = r.pages { object["pages"] = p }
            if let e = r.error { object["error"] = e }
            if let c = r.exitCode { object["exitCode"] = Int(c) }
            if let p = r.placeholders { object["placeholders"] = p }
            if let w = r.warnings { object["warnings"] = w }
        case .finished(let s):
            guard let data = try? JSONSerialization.jsonObject(with: s.json(pretty: false)) as? [String: Any] else { return }
            object = data
            object["event"] = "summary"
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        Console.write(data + Data("\n".utf8), to: STDOUT_FILENO)
    }

    private func draw(_ event: BatchEvent) {
        switch event {
        case .started:
            started = Date()
            return
        case .jobStarted(let job):
            running.append(job.id)
            line(finished: counts.done + counts.skipped + counts.failed, total: nil)
        case .jobFinished(let r, let finished, let total):
            running.removeAll { $0 == r.id }
            switch r.status {
            case .done: counts.done += 1
            case .skipped: counts.skipped += 1
            case .failed, .cancelled:
                counts.failed += 1
                write("\r\u{1B}[K✗ \(r.id): \(r.error ?? "failed")\n")
            }
            if let p = r.placeholders, p > 0 { write("\r\u{1B}[K! \(r.id): \(p) placeholder(s)\n") }
            line(finished: finished, total: total)
        case .finished:
            write("\r\u{1B}[K")
        }
    }

    private var total = 0
    private var started = Date()
    private func line(finished: Int, total: Int?) {
        if let total { self.total = total }
        let width = 30
        let filled = self.total > 0 ? width * finished / self.total : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let current = running.first.map { "  \($0)" } ?? ""
        // The rate counts books rendered or failed; a skipped book costs next to nothing.
        let worked = counts.done + counts.failed
        let elapsed = Date().timeIntervalSince(started)
        var eta = ""
        if worked > 0, elapsed > 0.2, finished < self.total {
            eta = "  about \(ProgressLine.duration(Double(self.total - finished) * elapsed / Double(worked))) left"
        }
        write("\r\u{1B}[K[\(bar)] \(finished)/\(self.total)  ✓\(counts.done) =\(counts.skipped) ✗\(counts.failed)\(eta)\(current)")
    }

    private func write(_ s: String) { Console.write(Data(s.utf8), to: STDERR_FILENO) }
}
