// bookrender as a library: open a book → validate → export (PDF, page PNGs, spreads) → a report,
// and the same for preflight, the printed cover, comparison and the generation step. The command
// line, batch jobs and the test suites call only this module; docs/api.md shows it in use.
//
// The document model (Book, Page, …) is part of the API: a program may build a book in memory
// instead of reading one. The stage modules stay behind it; the page tree (BookLayout) is
// returned for programs that inspect layout, as golden and layout tests do.
@_exported import BookModel
import BookBase
import BookConfig
import BookLayout

public typealias PageTree = BookLayout.PageTree
public typealias PrintProfile = BookConfig.PrintProfile
public typealias CoverBinding = BookConfig.CoverBinding

public enum BookRenderKit {
    /// This library's version, also written into reports.
    public static let version = ProductVersion.current

    /// A signal handler that removes the temporary files and folders of every write in flight
    /// (and stops the child processes writing some), then ends the process by the signal, so that
    /// a run stopped by SIGINT or SIGTERM leaves the previous outputs and nothing beside them. The
    /// library installs no signal handlers: a program installs this one with `sigaction` for the
    /// signals it wants handled so. Async-signal-safe.
    public static let stopHandler: @convention(c) (Int32) -> Void = TemporaryFiles.signalHandler

    /// For a program: a crash (a fault, an abort) removes the run's temporaries before the process
    /// ends by it, the handler installed before it still called. The library never installs it.
    @discardableResult
    public static func removeTemporariesOnCrash() -> Bool { TemporaryFiles.removeOnCrash() }

    /// Blocks while a signal is stopping the process (which then ends by it): called before
    /// exiting after an error, which may be one the removal of the temporaries caused.
    public static func waitIfStopping() { TemporaryFiles.waitIfStopping() }

    /// A signal handler for a run whose work in flight is paid for (the generation step): the first
    /// signal only asks the run to finish (`onFinishRequest`'s body is called; pass an
    /// `IllustrationStop` to the run), a second is `stopHandler`. Async-signal-safe.
    public static let finishHandler: @convention(c) (Int32) -> Void = FinishRequest.signalHandler

    /// Calls `body` on a thread of its own when the first signal reaches `finishHandler`. Call it
    /// once, before installing the handler.
    public static func onFinishRequest(_ body: @escaping @Sendable (Int32) -> Void) { FinishRequest.listen(body) }

    /// The signal `finishHandler` received, if any: the program ends by it once the run has finished.
    public static var finishRequestSignal: Int32? { FinishRequest.signal }
}
