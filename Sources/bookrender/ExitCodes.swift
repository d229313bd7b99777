import ArgumentParser
import Foundation
import BookBase
import BookModel
import BookConfig
import BookResolve
import BookRender

/// sysexits(3) codes, so shell scripts and batch jobs can tell a bad book from a broken disk.
enum Exit {
    static let dataError = ExitCode(65)
    static let noInput = ExitCode(66)
    static let software = ExitCode(70)
    static let cannotCreate = ExitCode(73)

    /// Prints the error as the user should read it and picks its exit code.
    static func fail(_ error: Error) -> ExitCode {
        let code: ExitCode
        switch error {
        case let e as BookError: code = e.kind == .io ? noInput : dataError
        case is ResolveError, is ConfigError: code = dataError
        case is OutputError: code = cannotCreate
        case is PreflightRefusal: code = ExitCode(1)
        case is RenderError: code = software
        default: code = software
        }
        Console.error("error: \(error)")
        return code
    }
}

/// Export with a print profile stops before writing when preflight finds errors.
struct PreflightRefusal: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

struct OutputError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

enum Console {
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
