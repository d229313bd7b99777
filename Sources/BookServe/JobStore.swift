import Foundation

/// The job queue on disk: one SQLite file, one row per job holding its record as JSON. Every
/// change is committed before the caller goes on, so what a client was told survives a crash.
final class JobStore: @unchecked Sendable {
    private let db: SQLiteDatabase
    private let encoder: JSONEncoder = {
        let e = JSONEncoder(); e.dateEncodingStrategy = .iso8601; e.outputFormatting = [.sortedKeys]; return e
    }()
    private let decoder: JSONDecoder = {
        let d = JSONDecoder(); d.dateDecodingStrategy = .iso8601; return d
    }()

    init(path: String) throws {
        db = try SQLiteDatabase(path: path)
        try db.execute("""
            CREATE TABLE IF NOT EXISTS jobs (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE NOT NULL,
            state TEXT NOT NULL, client TEXT NOT NULL, record TEXT NOT NULL)
            """)
    }

    func insert(_ job: JobRecord) throws {
        try db.execute("INSERT INTO jobs (id, state, client, record) VALUES (?, ?, ?, ?)",
                       [job.id, job.state.rawValue, job.client, try json(job)])
    }

    func update(_ job: JobRecord) throws {
        try db.execute("UPDATE jobs SET state = ?, record = ? WHERE id = ?", [job.state.rawValue, try json(job), job.id])
    }

    func job(_ id: String) throws -> JobRecord? {
        try db.query("SELECT record FROM jobs WHERE id = ?", [id]).first.flatMap { try decode($0[0]) }
    }

    /// Jobs in a state, oldest first.
    func jobs(in state: JobRecord.State) throws -> [JobRecord] {
        try db.query("SELECT record FROM jobs WHERE state = ? ORDER BY seq", [state.rawValue]).compactMap { try decode($0[0]) }
    }

    /// Jobs in any of `states`, oldest first.
    func jobs(in states: [JobRecord.State]) throws -> [JobRecord] {
        let marks = states.map { _ in "?" }.joined(separator: ", ")
        return try db.query("SELECT record FROM jobs WHERE state IN (\(marks)) ORDER BY seq", states.map(\.rawValue)).compactMap { try decode($0[0]) }
    }

    /// A page of the job list, newest first: at most `limit` jobs submitted before the job
    /// numbered `before` (the cursor of the previous page), each with its number.
    func page(state: JobRecord.State?, client: String?, before: Int?, limit: Int) throws -> [(seq: Int, job: JobRecord)] {
        var conditions: [String] = [], values: [String?] = []
        if let state { conditions.append("state = ?"); values.append(state.rawValue) }
        if let client { conditions.append("client = ?"); values.append(client) }
        if let before { conditions.append("seq < ?"); values.append(String(before)) }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try db.query("SELECT seq, record FROM jobs \(filter) ORDER BY seq DESC LIMIT \(limit)", values)
        return try rows.compactMap { row in
            guard let seq = row[0].flatMap({ Int($0) }), let job = try decode(row[1]) else { return nil }
            return (seq, job)
        }
    }

    func delete(_ id: String) throws {
        try db.execute("DELETE FROM jobs WHERE id = ?", [id])
    }

    /// Every job's id, for telling the job folders that have none.
    func ids() throws -> Set<String> {
        Set(try db.query("SELECT id FROM jobs").compactMap { $0[0] })
    }

    func counts() throws -> [JobRecord.State: Int] {
        var out: [JobRecord.State: Int] = [:]
        for row in try db.query("SELECT state, COUNT(*) FROM jobs GROUP BY state") {
            if let s = row[0].flatMap(JobRecord.State.init(rawValue:)) { out[s] = Int(row[1] ?? "0") ?? 0 }
        }
        return out
    }

    private func json(_ job: JobRecord) throws -> String { String(decoding: try encoder.encode(job), as: UTF8.self) }

    private func decode(_ text: String?) throws -> JobRecord? {
        guard let text else { return nil }
        return try decoder.decode(JobRecord.self, from: Data(text.utf8))
    }
}
