import Foundation

/// The process writing a journal: its id and when it started (clock ticks since boot, field 22 of
/// /proc/PID/stat), so `--status` can tell a run that is still going from one that died (kill -9,
/// a closed pipe) and left pictures marked as under way. The start time keeps a process id that a
/// later program was given from passing for the run.
public struct JournalRun: Codable, Sendable, Equatable {
    public var pid: Int32
    public var started: UInt64

    public init(pid: Int32, started: UInt64) { self.pid = pid; self.started = started }

    /// This process; nil where /proc cannot be read.
    static func current() -> JournalRun? {
        let pid = getpid()
        return startTime(of: pid).map { JournalRun(pid: pid, started: $0) }
    }

    /// Whether the run's process still runs.
    var isRunning: Bool { Self.startTime(of: pid) == started }

    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces and parentheses) come fields 3, 4, …
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
