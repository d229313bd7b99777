import Foundation
import Testing
@testable import BookBase
import BookTestSupport

/// What a process that has ended left beside its outputs is removed; a zombie, which an init that
/// reaps slowly keeps for a while after the kill, has ended too.
@Suite struct StaleLeftoversTests {
    @Test func aZombiesTemporariesAreRemovedAndARunningProcesssAreKept() throws {
        let dir = try temporaryDirectory("stale")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("book.pdf")
        // A child that exits and is not waited for stays a zombie until the waitpid below.
        var zombie: pid_t = 0
        let args: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { args.forEach { free($0) } }
        #expect(posix_spawn(&zombie, "/bin/true", nil, nil, args, environ) == 0)
        defer { var status: Int32 = 0; waitpid(zombie, &status, 0) }
        var state = ""
        for _ in 0..<500 {
            state = (try? String(contentsOfFile: "/proc/\(zombie)/stat", encoding: .utf8)) ?? ""
            if TemporaryFiles.Leftovers.hasEnded(statLine: state) { break }
            usleep(10_000)
        }
        #expect(TemporaryFiles.Leftovers.hasEnded(statLine: state), "the child is a zombie: \(state)")
        #expect(kill(zombie, 0) == 0, "signals still reach a zombie, so kill(pid, 0) alone takes it for running")

        let dead = dir.appendingPathComponent(AtomicOutput.temporaryPrefix(for: output, process: zombie) + "7")
        let alive = dir.appendingPathComponent(AtomicOutput.temporaryPrefix(for: output, process: getppid()) + "7")
        for file in [dead, alive] { FileManager.default.createFile(atPath: file.path, contents: Data("%PDF".utf8)) }
        TemporaryFiles.Leftovers.removeStale(writing: [output])
        #expect(!FileManager.default.fileExists(atPath: dead.path), "the zombie's temporary is removed")
        #expect(FileManager.default.fileExists(atPath: alive.path), "a running process's temporary is kept")
    }

    @Test func theStateIsReadAfterTheCommandsLastParenthesis() {
        #expect(TemporaryFiles.Leftovers.hasEnded(statLine: "42 (a) Z) b) Z 1 42 42 0"))
        #expect(!TemporaryFiles.Leftovers.hasEnded(statLine: "42 (we (Z) ) S 1 42 42 0"))
        #expect(!TemporaryFiles.Leftovers.hasEnded(statLine: ""))
    }
}
