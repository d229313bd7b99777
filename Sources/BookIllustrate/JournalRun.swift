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

    /// Whether the run's process still runs: the same start time, and not a zombie (a run killed
    /// with its parent stays one until an init reaps it).
    var isRunning: Bool {
        guard let (state, start) = Self.stat(of: pid) else { return false }
        return start == started && state != "Z" && state != "X"
    }

    static func startTime(of pid: Int32) -> UInt64? { stat(of: pid)?.start }

    private static func stat(of pid: Int32) -> (state: Substring, start: UInt64)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return nil }
        // After the command name (which may hold spaces and parentheses) come fields 3, 4, …
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let start = UInt64(fields[19]) else { return nil }
        return (fields[0], start)
    }
}
