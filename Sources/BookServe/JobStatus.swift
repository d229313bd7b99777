import Foundation
import BookRenderKit

/// What `GET /v1/jobs/{id}` answers: the job's record with its progress, each picture's generation
/// state (from the illustrate journal) and each page's state, and the links to what is ready.
struct JobStatus: Codable, Sendable, Equatable {
    struct Progress: Codable, Sendable, Equatable {
        /// queued, illustrating, rendering (pdf pages), rasterizing (png pages), finished.
        var stage: String
        var done: Int?
        var total: Int?
    }
    struct Picture: Codable, Sendable, Equatable {
        var key: String
        var label: String
        /// The journal's state: pending, generating, done, failed…
        var state: String
        var attempts: Int
        var lastError: String?
    }
    struct Page: Codable, Sendable, Equatable {
        var number: Int
        /// ready: its PNG can be fetched.
        var state: String
        var png: String?
    }

    var version = 1
    var id: String
    var state: JobRecord.State
    var created: Date
    var started: Date?
    var finished: Date?
    var attempts: Int
    var options: ServeJobOptions
    var progress: Progress
    var pictures: [Picture]?
    var pages: [Page]
    var pageCount: Int?
    var placeholders: Int?
    var warnings: [String]?
    var error: JobRecord.Failure?
    var pdf: String?
    var report: String?
    /// The job's order of printed copies from Lulu, once one is asked for.
    var order: OrderRecord?

    /// Finished, and no order on its way: nothing about the job will change by itself.
    var isSettled: Bool { state.isFinal && order?.inProgress != true }

    init(_ job: JobRecord, folder: JobFolder) {
        id = job.id; state = job.state; created = job.created; started = job.started; finished = job.finished
        attempts = job.attempts; options = job.options; pageCount = job.pages; placeholders = job.placeholders
        warnings = job.warnings; error = job.error
        error?.message = ClientText.forClient(job.error?.message ?? "", job: folder)
        warnings = job.warnings?.map { ClientText.forClient($0, job: folder) }
        let base = "/v1/jobs/\(job.id)"
        if job.options.fillMissing == true, let status = try? Illustration.status(bookAt: URL(fileURLWithPath: job.book)) {
            pictures = status.pictures.map { Picture(key: $0.key, label: $0.label, state: $0.state, attempts: $0.attempts, lastError: $0.lastError) }
        }
        var pngs = job.state == .done ? folder.pagePNGs() : [:]
        if job.state == .running, FileManager.default.fileExists(atPath: folder.previewPNG.path) { pngs[1] = folder.previewPNG }
        pages = pngs.keys.sorted().map { Page(number: $0, state: "ready", png: "\(base)/pages/\($0).png") }
        switch job.state {
        case .queued:
            progress = Progress(stage: "queued")
        case .running:
            progress = JobStatus.runningProgress(folder)
            if progress.stage == "starting", job.options.fillMissing == true { progress.stage = "illustrating" }
        case .done, .failed, .cancelled:
            progress = Progress(stage: "finished")
        }
        if job.state == .done {
            pdf = "\(base)/pdf"
            report = "\(base)/report"
        }
        order = OrderDesk.record(folder)
    }

    /// The export's last `progress` line says how far it is.
    private static func runningProgress(_ folder: JobFolder) -> Progress {
        guard let text = try? String(contentsOf: folder.events, encoding: .utf8) else { return Progress(stage: "starting") }
        for line in text.split(separator: "\n").reversed() {
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["event"] as? String == "progress" else { continue }
            let stage = o["stage"] as? String == "png" ? "rasterizing" : "rendering"
            return Progress(stage: stage, done: o["done"] as? Int, total: o["total"] as? Int)
        }
        return Progress(stage: "starting")
    }
}
