import Foundation

/// What `/metrics` adds up since the service started (Prometheus counters reset with the process).
struct ServeMetrics: Sendable {
    var jobsFinished: [String: Int] = [:]
    var renderSecondsSum = 0.0
    var renderCount = 0
    var generationSecondsSum = 0.0
    var generationCount = 0

    mutating func record(job: JobRecord, seconds: Double, render: Double?) {
        jobsFinished[job.state.rawValue, default: 0] += 1
        if let render {
            renderSecondsSum += render
            renderCount += 1
            // With fillMissing the child first generates the pictures: what is not the export's own time is theirs.
            if job.options.fillMissing == true {
                generationSecondsSum += max(0, seconds - render)
                generationCount += 1
            }
        }
    }

    func text(queued: Int, busy: Int, workers: Int, jobTimeout: Double?, byState: [JobRecord.State: Int]) -> String {
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (labels, value) in samples { lines.append("\(name)\(labels) \(value)") }
        }
        metric("bookrender_serve_queue_length", "gauge", "Jobs waiting for a worker.", [("", "\(queued)")])
        metric("bookrender_serve_workers_busy", "gauge", "Jobs being rendered now.", [("", "\(busy)")])
        metric("bookrender_serve_workers", "gauge", "Jobs rendered at once at most.", [("", "\(workers)")])
        metric("bookrender_serve_job_timeout_seconds", "gauge", "Seconds a job may run before it is stopped (0: no limit).",
               [("", String(format: "%g", jobTimeout ?? 0))])
        metric("bookrender_serve_jobs", "gauge", "Jobs in the database, by state.",
               JobRecord.State.allCases.map { ("{state=\"\($0.rawValue)\"}", "\(byState[$0] ?? 0)") })
        metric("bookrender_serve_render_seconds", "summary", "Time the exports spent rendering (their report's stages), since start.",
               [("_sum", String(format: "%.3f", renderSecondsSum)), ("_count", "\(renderCount)")])
        metric("bookrender_serve_generation_seconds", "summary", "Time fillMissing jobs spent before their export (generating pictures), since start.",
               [("_sum", String(format: "%.3f", generationSecondsSum)), ("_count", "\(generationCount)")])
        return lines.joined(separator: "\n") + "\n"
    }
}
