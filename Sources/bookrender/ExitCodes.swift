import ArgumentParser
import Foundation
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
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
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
