import Foundation

/// The one check every command's `--report FILE` goes through before the command does any work:
/// the report is never one of the run's inputs or outputs (by path or file identity, so a hard
/// link or a symbolic link to the book counts as the book), never a file of another kind (a
/// picture, a PDF) and never a read-only file unless forced. `export` and `cover` add their
/// pictures and fonts once they are found; this covers what the command line names.
public enum ReportTarget {
    /// A file the run reads or writes, and how a message names it.
    public struct Involved: Sendable {
        public var url: URL
        public var name: String
        public var isOutput: Bool
        public static func input(_ url: URL, _ name: String) -> Involved { Involved(url: url, name: name, isOutput: false) }
        public static func output(_ url: URL, _ name: String) -> Involved { Involved(url: url, name: name, isOutput: true) }
    }

    public static func check(_ report: URL, against involved: [Involved], replacingReadOnly: Bool = false) throws(BookRenderError) {
        var paths = OutputPaths()
        for file in involved where !file.isOutput { paths.input(file.url, as: file.name) }
        // Other outputs come first, so a report aimed at one is named as that output.
        for file in involved where file.isOutput { paths.output(file.url, as: file.name, kind: .any) }
        paths.output(report, as: "the report", kind: .json)
        try paths.verify(replacingReadOnly: replacingReadOnly)
    }
}
