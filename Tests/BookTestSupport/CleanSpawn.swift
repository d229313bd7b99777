import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program the way a shell would: every signal unblocked and at its default, only
/// standard input, output and error open, in a process group of its own.
///
/// Foundation's `Process` does neither. A test runs on a dispatch thread, which blocks most
/// signals, so its children start with SIGTERM blocked; and they inherit the socket Foundation
/// watches to learn that a child ended, so a daemon a child starts (munged, slurmd) keeps that
/// socket open and `waitUntilExit` never returns. Waiting here is `waitpid` on the child alone.
public struct CleanChild {
    public let pid: pid_t

    public init(_ executable: String, _ arguments: [String], environment: [String: String],
                currentDirectory: String?, stdout: Int32, stderr: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // glibc 2.34 and 2.29 have these, but its headers declare them only for _GNU_SOURCE.
        guard let closeFrom = Self.glibc("posix_spawn_file_actions_addclosefrom_np", as: ClosingFrom.self),
              closeFrom(&actions, 3) == 0 else { throw ToolError("this C library cannot close a child's descriptors (glibc 2.34 or newer can)") }
        if let currentDirectory {
            guard let chdir = Self.glibc("posix_spawn_file_actions_addchdir_np", as: ChangingDirectory.self),
                  chdir(&actions, currentDirectory) == 0 else { throw ToolError("cannot start \(executable) in \(currentDirectory)") }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw ToolError("cannot start \(executable): \(String(cString: strerror(status)))") }
        pid = child
    }

    /// The exit status, or the signal that ended the child (as `Process.terminationStatus` gives
    /// it). A child still running after
    /// `seconds` is killed with its process group and the wait throws, naming `what`.
    public func wait(within seconds: Double, _ what: @autoclosure () -> String) throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return Self.exitCode(status) }
            if r < 0, errno != EINTR { throw ToolError("waiting for \(what()): \(String(cString: strerror(errno)))") }
            if Date() >= deadline { break }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        throw ToolError("\(what()) was still running after \(Int(seconds)) s and was killed")
    }

    private static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    private typealias ClosingFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangingDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func glibc<F>(_ name: String, as: F.Type) -> F? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: F.self)
    }
}
