import Foundation
import BookResolve

/// One call of `Typesetter.layout`: equal requests give equal layouts.
struct TextRequest: Hashable {
    var text: String
    var style: TextStyle
    var width: Double
    var alignment: TextAlignment
    var hyphenate: Bool
}

/// Lays out a book's long texts (text pages, chapter bodies) before the pages are made, on all
/// cores: shaping and breaking tens of thousands of words is most of a memoir's layout time, and
/// each text's layout depends only on the text, its style and the column width, not on the pages
/// before it. The page pass then finds them ready.
///
/// Each helper thread has a Typesetter of its own (Pango objects are never used by two threads at
/// once); its layouts are handed over only once it has finished, and drawn afterwards. The
/// layouts are the same whichever thread makes them, so the output does not depend on the number
/// of threads.
enum TextPrefetch {
    /// Texts shorter than this are laid out where they are needed: not worth a hand-over.
    static let minimumBytes = 2_000
    /// Below this much text in all, one thread does it faster than starting another.
    static let minimumTotalBytes = 40_000

    /// The long texts `BookLayouter` will ask for, as the templates ask for them.
    static func requests(_ book: ResolvedBook, typesetter: Typesetter) -> [TextRequest] {
        let ctx = LayoutContext(book: book, typesetter: typesetter)
        var seen = Set<TextRequest>()
        return book.pages.compactMap { page -> TextRequest? in
            switch page.page.type {
            case .text: return TextPageTemplate.bodyRequest(page, ctx)
            case .chapter: return ChapterTemplate.bodyRequest(page, ctx)
            default: return nil
            }
        }.filter { $0.text.utf8.count >= minimumBytes && seen.insert($0).inserted }
    }

    /// Lays out `requests` on up to `threads` threads, this one included, and leaves the
    /// results with `typesetter`.
    static func prepare(_ requests: [TextRequest], on typesetter: Typesetter, threads: Int) {
        let total = requests.reduce(0) { $0 + $1.text.utf8.count }
        let threads = min(threads, requests.count, max(1, total / (minimumTotalBytes / 2)))
        guard threads > 1 else { return }
        // Longest first, each to the least loaded thread: fixed by the requests alone.
        var shares = [[TextRequest]](repeating: [], count: threads)
        var load = [Int](repeating: 0, count: threads)
        for r in requests.sorted(by: { $0.text.utf8.count > $1.text.utf8.count }) {
            let i = load.indices.min { load[$0] < load[$1] }!
            shares[i].append(r)
            load[i] += r.text.utf8.count
        }
        let results = ResultBox(count: threads)
        let done = DispatchSemaphore(value: 0)
        let (fonts, language) = (typesetter.fonts, typesetter.language)
        for i in 1..<threads {
            Thread.detachNewThread { [shares] in
                let helper = Typesetter(fonts: fonts, language: language)
                results.set(i, (helper, shares[i].map { ($0, helper.makeLayout($0)) }))
                done.signal()
            }
        }
        let mine = shares[0].map { ($0, typesetter.makeLayout($0)) }
        for _ in 1..<threads { done.wait() }
        typesetter.adopt(mine, from: nil)
        for i in 1..<threads { if let (helper, made) = results.get(i) { typesetter.adopt(made, from: helper) } }
    }

    /// The helpers' results, written by each helper once and read after all have signalled.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [(Typesetter, [(TextRequest, TextLayout)])?]
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: (Typesetter, [(TextRequest, TextLayout)])) { lock.withLock { slots[i] = value } }
        func get(_ i: Int) -> (Typesetter, [(TextRequest, TextLayout)])? { lock.withLock { slots[i] } }
    }
}
