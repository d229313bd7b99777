import Foundation

/// What `bookrender export --report FILE` leaves in FILE: the report when the export succeeded,
/// the error when it failed. A batch reads its child processes' results this way.
public struct ExportOutcome: Codable {
    public var report: ExportReport?
    public var error: BookRenderError?

    public init(report: ExportReport) { self.report = report }
    public init(error: BookRenderError) { self.error = error }

    // A success writes the report itself at the top level, so the file reads as the report; a
    // failure writes {"error": …}.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let error = try c.decodeIfPresent(BookRenderError.self, forKey: .error) {
            self.error = error
        } else {
            report = try ExportReport(from: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let report { try report.encode(to: encoder); return }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(error, forKey: .error)
        // Every report keeps its findings under `findings`; a failure's are the error's.
        try c.encode(error?.diagnostics ?? [], forKey: .findings)
    }

    private enum CodingKeys: String, CodingKey { case report, error, findings }

    /// Writes the outcome to `url` as JSON, unless `url` is one of `inputs` (by path or file
    /// identity): a failed run must not replace the book it was asked to read. Nor a read-only
    /// file, unless `replacingReadOnly`.
    public func write(to url: URL, sparing inputs: [URL], replacingReadOnly: Bool = false) throws(BookRenderError) {
        var paths = OutputPaths()
        for input in inputs { paths.input(input, as: "an input") }
        paths.output(url, as: "the report", kind: .json)
        try paths.verify(replacingReadOnly: replacingReadOnly)
        try JSONOutput.write(CommandReport(command: "export", self), to: url)
    }

    public static func read(_ url: URL) throws -> ExportOutcome {
        try JSONDecoder().decode(ExportOutcome.self, from: try Data(contentsOf: url))
    }
}
