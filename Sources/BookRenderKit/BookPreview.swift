import Foundation
import BookBase
import BookLayout
import BookRender

/// A folder of page PNGs that follows a book as it is edited (`bookrender watch`): each
/// `refresh` opens the book again, lays it out and rewrites only the pages that look different.
/// Between refreshes the pictures stay decoded, so an edit to the text redraws without decoding
/// the art again.
public final class BookPreview {
    public let book: URL
    public let folder: URL
    public let settings: RenderSettings
    private let refresher: PageRefresher
    private var watcher: FolderWatcher?

    /// What one refresh did.
    public struct Refresh: Sendable {
        /// Pages whose PNG was rewritten, and pages whose PNG was removed (the book got shorter).
        public var written: [Int]
        public var removed: [Int]
        public var pageCount: Int
        public var seconds: Double
        /// The book's warnings (placeholders, unknown fields, missing glyphs).
        public var warnings: [Diagnostic]
    }

    public init(book: URL, png folder: URL, dpi: Double = 150, settings: RenderSettings = RenderSettings()) throws(BookRenderError) {
        guard dpi.isFinite, dpi >= 10, dpi <= 1200 else {
            throw BookRenderError(.invalidOptions, "the PNG resolution must be between 10 and 1200 dpi, not \(dpi)")
        }
        self.book = book; self.folder = folder; self.settings = try settings.checked()
        refresher = PageRefresher(dpi: dpi, workers: settings.workers)
    }

    /// Where the last refresh read from: the book's folder, its `fonts/`, and each picture's folder.
    private var inputFolders: [URL] = []

    /// Waits until the book, a picture, a font of the book or bookrender's templates (themes,
    /// token files, profiles) change, and returns the changed files' paths once an editor's save
    /// has settled. Only the folders the book reads from and those just inside its folder are
    /// watched, never all below it (it may be someone's home); the PNG folder's changes do not count.
    public func waitForChanges() throws(BookRenderError) -> [String] {
        try startWatching()
        while true {
            let changed = watcher!.nextChanges()
            if !changed.isEmpty { return changed }
        }
    }

    /// Starts (or extends, after a refresh, to the folders it read from) watching what
    /// `waitForChanges` reports. Call it before the first refresh: a file saved between that
    /// refresh and the first wait is then reported, not lost.
    public func startWatching() throws(BookRenderError) {
        do {
            if watcher == nil {
                let templates = try settings.resources().templates
                let created = try FolderWatcher(ignoring: [folder])
                try created.watch([templates], recursive: true)
                watcher = created
            }
            let bookFolder = book.deletingLastPathComponent()
            // The folders just inside the book's too: a picture the book names may not exist yet.
            let inside = ((try? FileManager.default.contentsOfDirectory(at: bookFolder, includingPropertiesForKeys: [.isDirectoryKey])) ?? [])
                .filter { !$0.lastPathComponent.hasPrefix(".") && (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            try watcher!.watch([bookFolder] + inside + inputFolders, recursive: false)
            try watcher!.watch([bookFolder.appendingPathComponent("fonts")], recursive: true)
        } catch let error as BookRenderError {
            throw error
        } catch {
            throw BookRenderError(.unwritableOutput, "\(error)")
        }
    }

    /// Opens the book again, lays it out and writes the pages whose pixels changed since the last
    /// refresh (every page, the first time). A book that cannot be read throws and leaves the
    /// folder as it was.
    public func refresh() throws(BookRenderError) -> Refresh {
        let clock = StageClock()
        let document = try BookDocument.open(book, settings: settings)
        var paths = OutputPaths()
        paths.input(book, as: "the book")
        paths.pageSet(in: folder, showing: nil)
        let (resolved, resources) = try document.resolveWithResources()
        for asset in resolved.allAssets { if let url = asset.file { paths.input(url, as: asset.origin) } }
        try paths.verify()
        inputFolders = Array(Set(resolved.allAssets.compactMap { $0.file?.deletingLastPathComponent() }))
        return try BookRenderError.wrap {
            let tree = BookLayouter(typesetter: try document.typesetter(resolved, resources), textThreads: settings.workers).layout(resolved)
            let outcome = try refresher.refresh(tree, into: folder)
            let warnings = document.loadWarnings + tree.findings.map(Diagnostic.init)
            return Refresh(written: outcome.written, removed: outcome.removed, pageCount: outcome.pageCount,
                           seconds: clock.elapsed, warnings: warnings)
        }
    }
}
