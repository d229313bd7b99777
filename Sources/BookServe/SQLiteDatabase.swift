import Foundation
import CSQLite

/// Debian's SQLite through its C API: the few calls the job store needs, with errors that name the file.
final class SQLiteDatabase: @unchecked Sendable {
    private var handle: OpaquePointer?
    private let lock = NSLock()
    let path: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw Failure(description: "cannot open the job database \(path): \(message); check the folder exists and is writable")
        }
        sqlite3_busy_timeout(handle, 5000)
        // A job is acknowledged only once its row is on disk: the journal survives a crash of the
        // process and, with FULL, of the machine.
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String, _ values: [String?] = []) throws {
        _ = try query(sql, values)
    }

    /// Runs one statement and returns its rows, each column as text.
    @discardableResult
    func query(_ sql: String, _ values: [String?] = []) throws -> [[String?]] {
        lock.lock(); defer { lock.unlock() }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(sql) }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, value) in values.enumerated() {
            if let value { sqlite3_bind_text(statement, Int32(i + 1), value, -1, transient) } else { sqlite3_bind_null(statement, Int32(i + 1)) }
        }
        var rows: [[String?]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw failure(sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { c in
                sqlite3_column_text(statement, c).map { String(cString: $0) }
            })
        }
        return rows
    }

    private func failure(_ sql: String) -> Failure {
        Failure(description: "the job database \(path) refused \(sql.split(separator: " ").prefix(3).joined(separator: " ")): \(String(cString: sqlite3_errmsg(handle)))")
    }
}
