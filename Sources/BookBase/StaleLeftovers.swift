import Foundation

extension TemporaryFiles.Leftovers {
    /// Removes what processes that no longer run left while writing `outputs`: the temporaries of
    /// an export killed with SIGKILL, or stopped with its batch by a scheduler, which could not
    /// remove its own. A temporary whose process still runs (on this machine) is left alone.
    /// Returns how many files and folders were removed.
    @discardableResult
    public static func removeStale(writing outputs: [URL]) -> Int {
        var pids = Set<pid_t>()
        for output in outputs {
            let besides = AtomicOutput.temporaryPrefix(for: output, process: 0).dropLast(2)  // ".NAME.partial-"
            pids.formUnion(processes(in: output.deletingLastPathComponent(), prefix: String(besides)))
            pids.formUnion(processes(in: output, prefix: String(PageSetOutput.stagingPrefix(process: 0).dropLast(2))))
        }
        var removed = 0
        for pid in pids.sorted() where pid != getpid() && !isRunning(pid) {
            removed += TemporaryFiles.Leftovers(ofProcess: pid, writing: outputs).remove()
        }
        return removed
    }

    /// The PIDs in the names `PREFIX<PID>-…` of `folder`'s entries.
    private static func processes(in folder: URL, prefix: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).compactMap { name in
            guard name.hasPrefix(prefix) else { return nil }
            return pid_t(name.dropFirst(prefix.count).prefix { $0.isNumber })
        }
    }

    /// A zombie has ended: a process killed with its parent stays one until an init reaps it, and
    /// an init that reaps slowly (a container's) kept a restarted service from removing what it left.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        return !hasEnded(statLine: (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "")
    }

    /// `/proc/PID/stat` says "PID (COMMAND) STATE …"; the command may hold spaces and parentheses,
    /// so the state is the first field after the last ")". Z is a zombie, X dead.
    static func hasEnded(statLine: String) -> Bool {
        guard let close = statLine.lastIndex(of: ")") else { return false }
        let state = statLine[statLine.index(after: close)...].drop { $0 == " " }.first
        return state == "Z" || state == "X"
    }
}
