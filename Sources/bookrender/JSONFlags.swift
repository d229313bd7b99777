import ArgumentParser
import Foundation
import BookRenderKit

/// The one way every command gives its result to programs: `--json` prints it on stdout, and a
/// command that writes files also takes `--report FILE` (`-` for stdout). Both are the shape
/// `schema/report.schema.json` publishes.
struct JSONFlags: ParsableArguments {
    @Flag(name: .long, help: "Print the result as JSON on stdout (schema/report.schema.json) instead of text.")
    var json = false
}

struct ResultOutput {
    var command: String
    var json: Bool
    /// A file, `-` for stdout, or nil.
    var report: String? = nil

    var toStdout: Bool { json || report == "-" }
    /// The report file to write, when one is named that is not stdout.
    var reportFile: URL? { report.flatMap { $0 == "-" ? nil : URL(fileURLWithPath: $0) } }

    /// Refuses a report file that is one of `involved` (the run's inputs and other outputs), a file
    /// of another kind, or read-only without `force`: before the command does anything.
    func checkReport(against involved: [ReportTarget.Involved], force: Bool = false) throws(BookRenderError) {
        guard let reportFile else { return }
        try ReportTarget.check(reportFile, against: involved, replacingReadOnly: force)
    }

    /// Prints `value` on stdout when asked, and writes it to the report file when `writeFile`.
    func emit<T: Encodable>(_ value: T, writeFile: Bool = true) throws(BookRenderError) {
        // The report names its producer, the font set's hash among it: made only when wanted.
        guard toStdout || (writeFile && reportFile != nil) else { return }
        let wrapped = CommandReport(command: command, value)
        if toStdout { Console.out(String(decoding: (try? wrapped.jsonData()) ?? Data(), as: UTF8.self)) }
        if writeFile, let reportFile { try JSONOutput.write(wrapped, to: reportFile) }
    }

    /// The error as JSON on stdout when the result was to go there, so a program reading stdout
    /// always gets one object.
    func emitFailure(_ error: BookRenderError) {
        guard toStdout else { return }
        let wrapped = CommandReport(command: command, FailureBody(error: error))
        Console.out(String(decoding: (try? wrapped.jsonData()) ?? Data(), as: UTF8.self))
    }

    /// Exits as `Exit.fail` does, after giving the error to a program reading stdout.
    func fail(_ error: BookRenderError) -> ExitCode {
        emitFailure(error)
        return Exit.fail(error)
    }
}

/// A failed command's JSON: the error, and its findings where every report keeps them.
struct FailureBody: Encodable {
    var error: BookRenderError
    var findings: [Diagnostic] { error.diagnostics }
    private enum Keys: String, CodingKey { case error, findings }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(error, forKey: .error)
        try c.encode(findings, forKey: .findings)
    }
}
