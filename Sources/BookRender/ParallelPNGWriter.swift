import Foundation
import Synchronization
import BookLayout

/// Rasterizes PNG pages on several threads, each with its own cairo context and image cache.
/// When every text of the tree has its glyph runs (see `TextLayout.glyphLines`), the workers share
/// the one layout: glyph runs are plain values drawn with cairo, which guards its shared fonts.
/// Otherwise (a text with a missing-glyph box, which only Pango draws) Pango objects must not be
/// shared between threads, so each worker lays the book out again (`relayout`, called once per
/// worker on that worker's thread) with its own font map.
/// Work is handed out a facing pair (1, 2–3, 4–5…) at a time, to whichever worker is free, so a
/// worker can also compose that pair's spread preview, and a worker on a slower core (a shared
/// machine's) takes fewer pairs instead of holding up the rest; the files are the same bytes
/// whatever the number of workers.
public struct ParallelPNGWriter: Sendable {
    public var dpi: Double
    public var spreads: Bool
    public var workers: Int
    /// Called after each page's file is written, on the thread that wrote it.
    public var pageWritten: (@Sendable () -> Void)?

    public init(dpi: Double = 150, spreads: Bool = false, workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.dpi = dpi; self.spreads = spreads; self.workers = max(1, workers)
    }

    /// `tree`: the book's layout, made on this thread; `pages`: the ones to write.
    @discardableResult
    public func write(_ tree: PageTree, to directory: URL, pages: Set<Int>? = nil,
                      relayout: @escaping @Sendable () throws -> PageTree) throws -> [URL] {
        let wanted = pages ?? Set(1...max(1, tree.pages.count))
        // Page numbers, in order, of each facing pair wanted.
        let pairs = Dictionary(grouping: tree.pages.map(\.number).filter(wanted.contains), by: Self.pair)
            .sorted { $0.key < $1.key }.map(\.value)
        let nextPair = Atomic<Int>(0)
        let shared = tree.prepareGlyphRuns() ? SharedTree(tree) : nil
        let results = Mutex<[(pair: Int, order: Int, url: URL)]>([])
        let failure = Mutex<Error?>(nil)
        let writer = { var w = PNGPageWriter(dpi: dpi, spreads: spreads); w.pageWritten = pageWritten; return w }()
        DispatchQueue.concurrentPerform(iterations: min(workers, pairs.count)) { _ in
            do {
                let tree = try shared?.tree ?? relayout()
                let nodes = Dictionary(uniqueKeysWithValues: tree.pages.map { ($0.number, $0) })
                let urls = try writer.write(tree, to: directory) {
                    let i = nextPair.wrappingAdd(1, ordering: .relaxed).oldValue
                    return i < pairs.count ? pairs[i].compactMap { nodes[$0] } : nil
                }
                results.withLock { all in
                    for (i, url) in urls.enumerated() { all.append((Self.pairOf(url), i, url)) }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { all in all.sorted { ($0.pair, $0.order) < ($1.pair, $1.order) }.map(\.url) }
    }

    /// A tree whose texts are all glyph runs: the workers only read it, and draw nothing with Pango.
    private final class SharedTree: @unchecked Sendable {
        let tree: PageTree
        init(_ tree: PageTree) { self.tree = tree }
    }

    /// The facing pair a written file belongs to, from its name (page-NNN or spread-NNN[-NNN]).
    private static func pairOf(_ url: URL) -> Int {
        let digits = url.deletingPathExtension().lastPathComponent.split(separator: "-").compactMap { Int($0) }
        return pair(digits.first ?? 0)
    }

    private static func pair(_ page: Int) -> Int { page / 2 }
}
