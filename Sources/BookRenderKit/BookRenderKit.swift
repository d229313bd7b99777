// bookrender as a library: open a book → validate → export (PDF, page PNGs, spreads) → a report,
// and the same for preflight, the printed cover, comparison and the generation step. The command
// line, batch jobs and the test suites call only this module; docs/api.md shows it in use.
//
// The document model (Book, Page, …) is part of the API: a program may build a book in memory
// instead of reading one. The stage modules stay behind it; the page tree (BookLayout) is
// returned for programs that inspect layout, as golden and layout tests do.
@_exported import BookModel
import BookConfig
import BookLayout

public typealias PageTree = BookLayout.PageTree
public typealias PrintProfile = BookConfig.PrintProfile

public enum BookRenderKit {
    /// This library's version, also written into reports.
    public static let version = "0.16.0"
}
