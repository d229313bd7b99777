import ArgumentParser
import Foundation
import Glibc
import Synchronization
import BookRenderKit

enum Exit {
    /// Prints the error as the user should read it and picks its exit code (sysexits(3), so shell
    /// scripts and batch jobs can tell a bad book from a broken disk).
    static func fail(_ error: BookRenderError) -> ExitCode {
        // A write the signal's removal cut short is not the run's error: the signal ends it.
        BookRenderKit.waitIfStopping()
        if error.kind == .preflightFailed {
            for d in error.diagnostics { Console.error("preflight \(d)") }
        }
        Console.error("error: \(error.message)")
        return ExitCode(error.exitCode)
    }
}

enum Console {
    static func error(_ line: String) {
        write(Data((line + "\n").utf8), to: STDERR_FILENO)
    }
    static func out(_ line: String) {
        write(Data((line + "\n").utf8), to: STDOUT_FILENO)
    }

    /// Streams no longer written to; whether a reader has gone; who waits to hear it.
    private static let closed = Mutex<(streams: Set<Int32>, gone: Bool, handlers: [@Sendable () -> Void])>(([], false, []))

    /// Writes all of `data`, or nothing more once the reader has gone. The HTTP client ignores
    /// SIGPIPE for the whole process, and FileHandle's write traps on EPIPE, so a closed pipe
    /// (`bookrender illustrate --events | head`) would end a run with paid calls in flight as a
    /// crash; here it is a closed stream, told once to `whenOutputCloses`.
    static func write(_ data: Data, to fd: Int32) {
        if closed.withLock({ $0.streams.contains(fd) }) { return }
        let failure = data.withUnsafeBytes { raw -> Int32 in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n; continue }
                if n < 0, errno == EINTR { continue }
                return n < 0 ? errno : EIO
            }
            return 0
        }
        if failure == EPIPE { closedOutput(fd) }
        else if failure != 0 { closed.withLock { _ = $0.streams.insert(fd) } }
    }

    /// A stream whose reader has gone (or a file of events that cannot be written): nothing more
    /// is written to it, and the handlers waiting for that are told, once.
    static func closedOutput(_ fd: Int32 = -1) {
        let handlers = closed.withLock { state -> [@Sendable () -> Void] in
            state.streams.insert(fd)
            state.gone = true
            defer { state.handlers = [] }
            return state.handlers
        }
        handlers.forEach { $0() }
    }

    /// `body` runs once, the first time a write to stdout or stderr finds its reader gone.
    static func whenOutputCloses(_ body: @escaping @Sendable () -> Void) {
        let already = closed.withLock { state -> Bool in
            if !state.gone { state.handlers.append(body) }
            return state.gone
        }
        if already { body() }
    }

    /// Lines for stdout, or for stderr when stdout carries JSON.
    static func printer(toStderr: Bool) -> @Sendable (String) -> Void {
        if toStderr { return { line in Console.error(line) } }
        return { line in Console.out(line) }
    }

    /// Pretty, sorted JSON on stdout.
    static func json<T: Encodable>(_ value: T) {
        out(String(decoding: (try? JSONOutput.encode(value)) ?? Data(), as: UTF8.self))
    }
}

extension ExitCodes {
    /// Every command's help ends with where its exit codes are listed.
    static let pointer = "Exit codes: \(summary) See `bookrender --help`."
}

enum ExitCodes {
    static let summary = """
    0 success (warnings may be printed), 1 preflight found errors, 64 bad command line, 65 the book or \
    an image in it is invalid (or --strict found a missing image), 66 the input cannot be read, \
    73 an output cannot be written, 70 rendering failed.
    """
}
