import Foundation
import CContentColour

/// Marks what a tagged PDF paints outside its structure (page fills, rules, folios, placeholder
/// art) as `/Artifact`, which PDF/UA asks of all content that is not tagged (ISO 14289-1, 7.1).
/// cairo 1.16 fails the surface on an `Artifact` tag, so the page content streams are rewritten
/// afterwards: each page gets a new, Flate-compressed content stream, written by both finishing
/// paths (in an incremental update as a new stream object); pictures and forms stay as they are.
enum ArtifactMarking {
    /// libdeflate's fastest level: every page of a book is compressed again here, after cairo,
    /// and text pages' content compresses a few per cent less well at it than at the default, a
    /// small share of a print PDF, whose pictures pass through untouched.
    static let compression: Int32 = 1

    /// A page's content as read for marking: decoded, or as cairo stored it (Flate-compressed),
    /// inflated by the worker that marks it.
    struct Content: Sendable {
        var bytes: [UInt8]
        var compressed: Bool
        /// Marked already: the page keeps it.
        var keep = false
    }

    /// The marking of a document's pages, going on on worker threads while the rest of the
    /// finishing works on the document; `finish` waits for it and gives the pages their new content.
    /// The workers start on the first pages while the later ones are still being read.
    final class Marking: @unchecked Sendable {
        private var pages: [QPDFDocument.Handle] = []
        /// Each slot written once: `contents` by the reading thread, `results` by the thread that
        /// marks the page; `finish` reads `results` once the workers are done.
        private let contents: UnsafeMutableBufferPointer<Content?>
        private let results: UnsafeMutableBufferPointer<Result<Data, FinishingError>?>
        private let group = DispatchGroup()
        private let read = NSCondition()
        /// Pages read so far (guarded by `read`); `ended` once no more will be.
        private var readCount = 0
        private var ended = false
        /// Pages whose content was marked already; the reading thread's alone.
        private var kept = Set<Int>()
        /// Threads marking pages; with one, the reading thread marks each page as it reads it.
        private let workers: Int

        fileprivate init(pageCount: Int, threads: Int) {
            contents = .allocate(capacity: pageCount)
            contents.initialize(repeating: nil)
            results = .allocate(capacity: pageCount)
            results.initialize(repeating: nil)
            let workers = max(1, min(threads, pageCount))
            self.workers = workers
            guard workers > 1 else { return }
            for worker in 0..<workers {
                DispatchQueue.global().async(group: group) {
                    // Page by page in turn, so that workers finish together however the pages' sizes run.
                    for index in Swift.stride(from: worker, to: pageCount, by: workers) {
                        guard let content = self.waitForContent(index) else { return }
                        if content.keep { continue }
                        self.results[index] = ArtifactMarking.markPage(content, index: index)
                    }
                }
            }
        }

        deinit {
            // Also when the finishing failed before `finish`: the workers write into `results`.
            endReading()
            group.wait()
            contents.deinitialize()
            contents.deallocate()
            results.deinitialize()
            results.deallocate()
        }

        /// Reads the pages' contents from `doc`, handing each to the workers as it comes.
        fileprivate func read(_ doc: QPDFDocument, markedAlready: Set<Int>, markedPages: Set<Int>) throws {
            defer { endReading() }
            for index in 0..<contents.count {
                let page = try doc.page(index)
                pages.append(page)
                if try ArtifactMarking.keepsContent(of: page, at: index, in: doc, markedAlready: markedAlready, markedPages: markedPages) {
                    kept.insert(index)
                    if workers > 1 { handOver(Content(bytes: [], compressed: false, keep: true), at: index) }
                    continue
                }
                let content = if let stored = try doc.flatePageContent(page) {
                    Content(bytes: stored, compressed: true)
                } else {
                    Content(bytes: try doc.pageContent(page), compressed: false)
                }
                if workers == 1 {
                    results[index] = ArtifactMarking.markPage(content, index: index)
                    continue
                }
                handOver(content, at: index)
            }
        }

        private func handOver(_ content: Content, at index: Int) {
            contents[index] = content
            read.withLock {
                readCount = index + 1
                read.broadcast()
            }
        }

        private func endReading() {
            read.withLock {
                ended = true
                read.broadcast()
            }
        }

        /// Page `index`'s content once read; nil when reading stopped before it.
        private func waitForContent(_ index: Int) -> Content? {
            read.lock()
            while readCount <= index && !ended { read.wait() }
            let ready = readCount > index
            read.unlock()
            guard ready else { return nil }
            defer { contents[index] = nil }
            return contents[index]
        }

        /// Waits for the workers, then sets each page's `/Contents` to its marked stream.
        func finish(into doc: QPDFDocument) throws {
            group.wait()
            let flate = try doc.name("FlateDecode")
            for (index, (page, result)) in zip(pages, results).enumerated() where !kept.contains(index) {
                let stream = try doc.indirect(try doc.stream(data: try result!.get(), filter: flate))
                try doc.set(page, "/Contents", stream)
            }
        }
    }

    /// Starts marking every page of `doc` on up to `threads` threads (on this one alone for 1);
    /// nil for a PDF without a structure tree, which has nothing to mark. qpdf reads the contents
    /// here; the inflating, marking and compressing touch no qpdf object.
    /// `markedAlready`: content streams (by object number) marked as they were written, which a
    /// page keeps; `markedPages`: pages (by index) that keep theirs.
    static func start(_ doc: QPDFDocument, threads: Int, markedAlready: Set<Int> = [], markedPages: Set<Int> = []) throws -> Marking? {
        guard try doc.hasStructureTree else { return nil }
        let marking = Marking(pageCount: try doc.pageCount, threads: threads)
        try marking.read(doc, markedAlready: markedAlready, markedPages: markedPages)
        return marking
    }

    /// Whether the page at `index` keeps its content as it is (marked as it was written, see
    /// `start`), or has its content read from the file and marked here.
    static func keepsContent(of page: QPDFDocument.Handle, at index: Int, in doc: QPDFDocument,
                             markedAlready: Set<Int>, markedPages: Set<Int>) throws -> Bool {
        if markedPages.contains(index) { return true }
        guard !markedAlready.isEmpty, let id = try doc.objectID(try doc.get(page, "/Contents")) else { return false }
        return markedAlready.contains(id)
    }

    static func markPage(_ content: Content, index: Int) -> Result<Data, FinishingError> {
        call(content.bytes, index: index) {
            content_mark_artifacts($0, $1, content.compressed ? 1 : 0, compression, $2, $3, $4, $5)
        }.map { Data($0) }
    }

    /// One content stream marked, not compressed: what a page gets, as it reads.
    static func markedText(_ content: [UInt8]) throws(FinishingError) -> [UInt8] {
        try call(content, index: 0, content_mark_artifacts_plain).get()
    }

    private typealias MarkingCall = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                                     UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>, Int) -> Int32

    private static func call(_ content: [UInt8], index: Int, _ marking: MarkingCall) -> Result<[UInt8], FinishingError> {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = content.withUnsafeBufferPointer { marking($0.baseAddress, $0.count, &out, &count, &message, message.count) }
        defer { free(out) }
        guard status == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(FinishingError("marking page \(index + 1)'s untagged content as artifacts: \(text)"))
        }
        return .success(out.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    }
}
