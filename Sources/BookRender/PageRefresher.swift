import Foundation
import Synchronization
import CGraphics
import BookBase
import BookLayout

/// Keeps a folder of page PNGs in step with a book that is being edited: each `refresh` draws
/// every page again and writes only the pages whose pixels differ from what it wrote last, so a
/// viewer showing the folder reloads just the pages an edit touched. Drawing is cheap next to
/// PNG encoding and a viewer's reload; comparing pixels (not the page tree) means no change to a
/// picture, a theme or a token can be missed. Decoded pictures are kept between refreshes,
/// keyed by their content, so an edit to the text does not decode the art again.
public final class PageRefresher: @unchecked Sendable {
    public let dpi: Double
    public let workers: Int
    /// Page number → digest of the pixels of the file last written for it.
    private var written: [Int: String] = [:]
    /// One drawer per worker, each with its own decoded pictures (cairo contexts are per thread).
    private let drawers: [PageDrawer]

    public struct Outcome: Sendable, Equatable {
        /// Pages whose PNG was written, in order.
        public var written: [Int]
        /// Pages whose PNG was removed because the book no longer has them.
        public var removed: [Int]
        public var pageCount: Int
    }

    public init(dpi: Double = 150, workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.dpi = dpi
        self.workers = max(1, workers)
        drawers = (0..<max(1, workers)).map { _ in PageDrawer(images: RasterImageSources(dpi: dpi), text: .glyphRuns) }
    }

    /// Draws `tree`'s pages and writes the changed ones into `folder` (each file replaced whole);
    /// page files past the book's last page are removed. The first refresh writes every page
    /// whose file is missing or differs.
    public func refresh(_ tree: PageTree, into folder: URL) throws -> Outcome {
        try AtomicOutput.makeFolder(folder)
        let size = PNGPageWriter(dpi: dpi).pixelSize(tree)
        let pages = tree.pages
        let job = Job(pages: pages, folder: folder, size: size, dpi: dpi, previous: written.isEmpty ? nil : written)
        if workers > 1, tree.prepareGlyphRuns() {
            let drawers = Drawers(drawers)
            DispatchQueue.concurrentPerform(iterations: min(workers, max(1, pages.count))) { w in job.run(drawers.all[w]) }
        } else {
            // A text only Pango can draw ties the tree to this thread.
            job.run(drawers[0])
        }
        if let error = job.failure.withLock({ $0 }) { throw error }
        let fresh = job.changed.withLock { $0 }
        for (number, digest) in fresh { written[number] = digest }

        let last = pages.map(\.number).max() ?? 0
        var removed: [Int] = []
        for name in PageSetOutput.oldFiles(in: folder, showing: { $0 > last }) {
            guard let shown = PageFileName.pagesShown(by: name), name.hasPrefix("page-") else { continue }
            if unlink(folder.appendingPathComponent(name).path) == 0 { removed += shown }
        }
        for number in removed { written[number] = nil }
        return Outcome(written: fresh.keys.sorted(), removed: removed.sorted(), pageCount: pages.count)
    }

    /// Draws `page` and hands its surface and pixel digest to `write`; returns the digest when
    /// `write` wrote it.
    private static func draw(_ page: PageNode, drawer: PageDrawer, size: (width: Int, height: Int), dpi: Double,
                             write: (OpaquePointer, String) throws -> Bool) throws -> String? {
        let surface = try PNGPageWriter.drawn(page, drawer: drawer, size: size, dpi: dpi)
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let hash = ContentHash()
        let stride = Int(cairo_image_surface_get_stride(surface))
        if let data = cairo_image_surface_get_data(surface) {
            hash.update(UnsafeRawBufferPointer(start: data, count: stride * size.height))
        }
        let digest = hash.finish()
        return try write(surface, digest) ? digest : nil
    }

    /// One refresh's pages, handed out one at a time to the workers.
    private final class Job: @unchecked Sendable {
        let pages: [PageNode]
        let folder: URL
        let size: (width: Int, height: Int)
        let dpi: Double
        /// Digests of the files the last refresh left; nil the first time, when every page is written.
        let previous: [Int: String]?
        let changed = Mutex<[Int: String]>([:])
        let failure = Mutex<Error?>(nil)
        let next = Atomic<Int>(0)

        init(pages: [PageNode], folder: URL, size: (width: Int, height: Int), dpi: Double, previous: [Int: String]?) {
            self.pages = pages; self.folder = folder; self.size = size; self.dpi = dpi; self.previous = previous
        }

        func run(_ drawer: PageDrawer) {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < pages.count, failure.withLock({ $0 == nil }) else { return }
                do {
                    let page = pages[i]
                    let url = folder.appendingPathComponent(PageFileName.page(page.number))
                    let digest = try PageRefresher.draw(page, drawer: drawer, size: size, dpi: dpi) { surface, digest in
                        if let previous, previous[page.number] == digest, FileManager.default.fileExists(atPath: url.path) {
                            return false
                        }
                        try AtomicOutput.write(to: url) { tmp in
                            try PNGWriter.write(surface: surface, to: tmp.path, as: url.path, dpi: self.dpi)
                        }
                        return true
                    }
                    if let digest { changed.withLock { $0[page.number] = digest } }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
    }

    private final class Drawers: @unchecked Sendable {
        let all: [PageDrawer]
        init(_ all: [PageDrawer]) { self.all = all }
    }
}
