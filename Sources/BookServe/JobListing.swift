import Foundation
import BookRenderKit

/// `GET /v1/jobs`: the jobs, newest first, a page at a time, by state and client.
enum JobListing {
    struct Query {
        var state: JobRecord.State?
        var client: String?
        var limit = 50
        /// The `next` of the page before: jobs submitted before that one.
        var cursor: Int?

        static let names = ["state", "client", "limit", "cursor"]
        static let maxLimit = 200

        init(_ items: [(String, String)]) throws(APIError) {
            var seen = Set<String>()
            for (key, value) in items where !key.isEmpty {
                guard Self.names.contains(key) else {
                    var message = "the query parameter \(ClientText.clipped(key)) is not one of the list's (\(Self.names.joined(separator: ", ")))"
                    if key.count <= 64, let near = Spelling.nearest(to: key, among: Self.names) { message += "; did you mean \(near)?" }
                    throw APIError(400, "unknownParameter", message)
                }
                guard seen.insert(key).inserted else { throw APIError(400, "invalidParameter", "the query parameter \(key) is given twice; give it once") }
                switch key {
                case "state":
                    guard let s = JobRecord.State(rawValue: value) else {
                        throw APIError(400, "invalidParameter", "state=\(ClientText.clipped(value)): give one of \(JobRecord.State.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    state = s
                case "client":
                    client = try ClientName.checked(value, "client")
                case "limit":
                    guard let n = Int(value), (1...Self.maxLimit).contains(n) else {
                        throw APIError(400, "invalidParameter", "limit=\(ClientText.clipped(value)): give a whole number from 1 to \(Self.maxLimit)")
                    }
                    limit = n
                default:
                    guard let n = Int(value), n > 0 else {
                        throw APIError(400, "invalidParameter", "cursor=\(ClientText.clipped(value)) is not a cursor; give the next of the page before")
                    }
                    cursor = n
                }
            }
        }
    }

    /// One job in the list: its record, without the progress and pages its status reads from disk.
    struct Summary: Codable, Sendable {
        var id: String
        var client: String
        var state: JobRecord.State
        var created: Date
        var started: Date?
        var finished: Date?
        var attempts: Int
        var options: ServeJobOptions
        var pageCount: Int?
        var placeholders: Int?
        var error: JobRecord.Failure?
    }

    struct Page: Codable, Sendable {
        var jobs: [Summary]
        /// The cursor of the next page; absent on the last.
        var next: String?
    }

    static func page(_ query: Query, store: JobStore, jobsFolder: URL) throws -> Page {
        // One more than asked for tells whether a next page exists.
        let rows = try store.page(state: query.state, client: query.client, before: query.cursor, limit: query.limit + 1)
        let shown = rows.prefix(query.limit)
        let jobs = shown.map { (_, job) in
            var error = job.error
            error?.message = ClientText.forClient(job.error?.message ?? "", job: JobFolder(jobs: jobsFolder, id: job.id))
            return Summary(id: job.id, client: job.client, state: job.state, created: job.created, started: job.started,
                           finished: job.finished, attempts: job.attempts, options: job.options, pageCount: job.pages,
                           placeholders: job.placeholders, error: error)
        }
        return Page(jobs: Array(jobs), next: rows.count > query.limit ? shown.last.map { String($0.seq) } : nil)
    }
}
