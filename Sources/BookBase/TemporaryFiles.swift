import Foundation
import CShim

/// What a run has in flight: the temporary files and folders it writes before renaming them into
/// place, and the child processes that write some of their own. A run stopped by a signal removes
/// them all, so it leaves the previous outputs and nothing beside them.
///
/// The registry lives in C (`shim_temporaries.h`) so that a signal handler can empty it. The
/// library never installs signal handlers (it is linked into other programs): a program installs
/// `signalHandler` for the signals that should stop it cleanly.
public enum TemporaryFiles {
    public struct Token: Sendable, Hashable { let slot: Int32 }

    /// Removes every temporary in flight, stops the child processes recorded, then ends the process
    /// by the signal with its default action. Async-signal-safe: install it with `sigaction`.
    public static let signalHandler: @convention(c) (Int32) -> Void = shim_temporaries_stop

    /// For a program: a fault or an abort (a crash) removes every temporary in flight and kills
    /// the children before the process ends by it, so a crash leaves no half-written output. The
    /// handler that was installed before (a backtracer's) still sees the crash.
    public static func removeOnCrash() -> Bool { shim_temporaries_install_crash_cleanup() == 0 }

    /// For a program whose jobs are children it should end gracefully: the first signal passes
    /// itself on to the children recorded and is remembered (`cancelSignal`), so the program starts
    /// nothing new and reports the jobs it stopped before it ends; a second one is `signalHandler`.
    /// Async-signal-safe: install it with `sigaction`.
    public static let cancelHandler: @convention(c) (Int32) -> Void = shim_temporaries_cancel

    /// The signal a cancel (see `cancelHandler`) began with; nil when none has.
    public static var cancelSignal: Int32? {
        let signal = shim_temporaries_cancelled()
        return signal == 0 ? nil : signal
    }

    /// Sends `signal` to every child process recorded (a cancel's children that outlast it).
    public static func signalChildren(_ signal: Int32) { shim_temporaries_signal_children(signal) }

    /// Whether a signal is stopping the process; its temporaries are being removed.
    public static var stopping: Bool { shim_temporaries_stopping() != 0 }

    /// Blocks when a signal is stopping the process, which then ends by that signal: for a thread
    /// about to end the process another way (an error the removal caused, then exit).
    public static func waitIfStopping() { shim_temporaries_wait_if_stopping() }

    /// Creates the temporary file `path` (empty, new: never an existing file) and records it, in one
    /// step, so a removal never misses a file that exists. Throws `OutputError` naming `target`.
    public static func createFile(_ path: String, for target: URL) throws -> Token {
        let slot = shim_temporaries_create_file(path)
        guard slot != -1 else { throw OutputError.cannotWrite(target) }
        return Token(slot: slot)
    }

    /// Creates the temporary folder `path` and records it. Throws `OutputError` naming `target`.
    public static func createFolder(_ path: String, for target: URL) throws -> Token {
        let slot = shim_temporaries_create_folder(path)
        guard slot != -1 else { throw OutputError.cannotWrite(target) }
        return Token(slot: slot)
    }

    /// Records a running child process: a stop sends it the signal (or `signal`), gives it time
    /// to remove its own temporaries, kills it if it has not ended, then removes `leftovers`.
    public static func track(childProcess pid: pid_t, signal: Int32 = 0, leftovers: Leftovers = Leftovers()) -> Token {
        let bytes = leftovers.bytes
        let slot = bytes.withUnsafeBufferPointer { shim_temporaries_track_child(pid, signal, $0.baseAddress, $0.count) }
        return Token(slot: slot)
    }

    /// The item is done with: renamed into place, removed, or the child has ended.
    public static func forget(_ token: Token) { shim_temporaries_forget(token.slot) }

    /// Runs `body`, a set of renames that must not be cut in half: a stop waits for its end.
    static func critical<T>(_ body: () throws -> T) rethrows -> T {
        shim_temporaries_begin_critical()
        defer { shim_temporaries_end_critical() }
        return try body()
    }

    /// Where an ended process may have left temporaries: entries of a folder whose names start
    /// with a prefix holding its PID.
    public struct Leftovers: Sendable {
        fileprivate var bytes: [CChar] = []

        public init() {}

        /// What process `pid` leaves while writing `outputs` (files or PNG folders): `.NAME.partial-PID-…`
        /// beside each, `.pages.partial-PID-…` inside it, and its scratch in the temporary folder.
        public init(ofProcess pid: pid_t, writing outputs: [URL]) {
            add(FileManager.default.temporaryDirectory, prefix: scratchPrefix(pid))
            for output in outputs {
                add(output.deletingLastPathComponent(), prefix: AtomicOutput.temporaryPrefix(for: output, process: pid))
                add(output, prefix: PageSetOutput.stagingPrefix(process: pid))
            }
        }

        mutating func add(_ folder: URL, prefix: String) {
            bytes += Array(folder.path.utf8CString) + Array(prefix.utf8CString)
        }

        /// Removes them. Returns how many files and folders were removed.
        @discardableResult
        public func remove() -> Int {
            Int(bytes.withUnsafeBufferPointer { shim_temporaries_remove_leftovers($0.baseAddress, $0.count) })
        }
    }

    /// The start of the names a process gives its scratch files and folders in the temporary folder.
    public static func scratchPrefix(_ pid: pid_t = getpid()) -> String { "bookrender-\(pid)-" }

    /// Calls `body` with a new empty file in the temporary folder (`bookrender-PID-NAME-N`),
    /// recorded while it exists and removed afterwards. Throws `OutputError`.
    public static func withScratchFile<T>(_ name: String, _ body: (URL) throws -> T) throws -> T {
        let url = scratchURL(name)
        let token = try createFile(url.path, for: url)
        defer { unlink(url.path); forget(token) }
        return try body(url)
    }

    /// The same with a new empty folder, removed with its contents afterwards.
    public static func withScratchFolder<T>(_ name: String, _ body: (URL) throws -> T) throws -> T {
        let url = scratchURL(name)
        let token = try createFolder(url.path, for: url)
        defer { try? FileManager.default.removeItem(at: url); forget(token) }
        return try body(url)
    }

    private static func scratchURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent(scratchPrefix() + "\(name)-\(UInt32.random(in: 0...UInt32.max))")
    }
}
