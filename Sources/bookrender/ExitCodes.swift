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

    /// Pretty, sorted JSON on stdout.
    static func json<T: Encodable>(_ value: T) {
        out(String(decoding: (try? JSONOutput.encode(value)) ?? Data(), as: UTF8.self))
    }
}
