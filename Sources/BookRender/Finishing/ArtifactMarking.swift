import Foundation
import CContentColour

/// Marks what a tagged PDF paints outside its structure (page fills, rules, folios, placeholder
/// art) as `/Artifact`, which PDF/UA asks of all content that is not tagged (ISO 14289-1, 7.1).
/// cairo 1.16 fails the surface on an `Artifact` tag, so the page content streams are rewritten
/// afterwards: each page gets a new, Flate-compressed content stream, written by both finishing
/// paths (in an incremental update as a new stream object); pictures and forms stay as they are.
enum ArtifactMarking {
    /// zlib's default level, as qpdf writes streams.
    static let compression: Int32 = -1

    /// Gives every page of `doc` its content with the unmarked painting marked as artifacts,
    /// the pages marked on up to `threads` threads. Nothing for a PDF without a structure tree.
    static func mark(_ doc: QPDFDocument, threads: Int) throws {
        guard try doc.hasStructureTree else { return }
        let pages = try (0..<doc.pageCount).map { try doc.page($0) }
        // qpdf reads on this thread; the marking and compressing, which touch no qpdf object, on all.
        let contents = try pages.map { try doc.pageContent($0) }
        let marked = try marked(contents, threads: threads)
        let flate = try doc.name("FlateDecode")
        for (page, data) in zip(pages, marked) {
            let stream = try doc.indirect(try doc.stream(data: data, filter: flate))
            try doc.set(page, "/Contents", stream)
        }
    }

    /// Each content marked and compressed, in order.
    static func marked(_ contents: [[UInt8]], threads: Int) throws -> [Data] {
        // Each index is written by one worker only.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result<Data, FinishingError>>.allocate(capacity: contents.count)
        defer { results.deinitialize().deallocate() }
        let workers = max(1, min(threads, contents.count))
        // Page by page in turn, so that workers finish together however the pages' sizes run.
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in Swift.stride(from: worker, to: contents.count, by: workers) {
                (results.baseAddress! + index).initialize(to: markPage(contents[index], index: index))
            }
        }
        return try results.map { try $0.get() }
    }

    private static func markPage(_ content: [UInt8], index: Int) -> Result<Data, FinishingError> {
        call(content, index: index) { content_mark_artifacts($0, $1, compression, $2, $3, $4, $5) }.map { Data($0) }
    }

    /// One content stream marked, not compressed: what `mark` writes, as it reads.
    static func markedText(_ content: [UInt8]) throws(FinishingError) -> [UInt8] {
        try call(content, index: 0, content_mark_artifacts_plain).get()
    }

    private typealias Marking = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>, Int) -> Int32

    private static func call(_ content: [UInt8], index: Int, _ marking: Marking) -> Result<[UInt8], FinishingError> {
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
