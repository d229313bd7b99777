import Foundation
import BookResolve

/// Lays out a book's long texts (text pages, chapter bodies) on helper threads while the page pass
/// runs: shaping and breaking tens of thousands of words is most of a memoir's layout time, and
/// each text's layout depends only on the text, its style and the column width, not on the pages
/// before it. So do the words of a picture book's pages, short but many, each set at every measure
/// its page tries and balanced when centred: most of a picture book's layout time. The helpers
/// take the texts in book order; the page pass takes each as it is finished, and lays out one
/// still waiting for a helper itself rather than sit idle, so pages (and the PDF drawn from them
/// as they come) follow the helpers closely.
///
/// Each helper thread has a Typesetter of its own (Pango objects are never used by two threads at
/// once). A helper hands over a layout only with its glyph runs made, so it can be drawn without
/// Pango on any thread while the helper goes on; a text only Pango can draw is left to the page
/// pass. The layouts are the same whichever thread makes them, so the output does not depend on
/// the number of threads.
enum TextPrefetch {
    /// Texts shorter than this are laid out where they are needed: not worth a hand-over. A picture
    /// page's words are the exception: they are set at more than one measure (`wordsAhead`).
    static let minimumBytes = 2_000
    /// Below this much text in all, one thread does it faster than starting another.
    static let minimumTotalBytes = 40_000

    /// The long texts `BookLayouter` will ask for, and the words of picture pages, which it sets at
    /// more than one measure while it looks for their place: in the order it asks for them.
    static func requests(_ book: ResolvedBook, typesetter: Typesetter,
                         measureInset: (inner: Double, outer: Double) = (0, 0)) -> [TextRequest] {
        let ctx = LayoutContext(book: book, typesetter: typesetter)
        ctx.measureInset = measureInset
        var seen = Set<TextRequest>()
        return book.pages.flatMap { page in
            let template = TemplateRegistry.template(for: page.page)
            return [template.textAhead(page, ctx)].compactMap { $0 }.filter { $0.text.utf8.count >= minimumBytes }
                + template.wordsAhead(page, ctx)
        }.filter { seen.insert($0).inserted }
    }

    /// Starts laying out `requests` on helper threads, `threads` in all counting this one, and
    /// leaves them with `typesetter`, which waits for (or makes) each when it is asked for.
    /// `glyphsOnly`: the layouts are only drawn, from their glyph runs, and dropped once drawn;
    /// a helper then frees each one's Pango objects itself before handing it over, and the
    /// queue lets go of a layout once it has handed it over, so a long book's texts are not all
    /// held to the end.
    static func start(_ requests: [TextRequest], on typesetter: Typesetter, threads: Int, glyphsOnly: Bool = false) {
        // A short text costs more than its bytes say: a layout's fixed cost, tried at each measure,
        // and set again to balance centred lines. Each counts as a text at the hand-over size.
        let total = requests.reduce(0) { $0 + max($1.text.utf8.count, minimumBytes) }
        let helpers = min(threads, requests.count, max(1, total / (minimumTotalBytes / 2))) - 1
        guard helpers > 0 else { return }
        let queue = PreparedTexts(requests, forgettingHandedOut: glyphsOnly)
        typesetter.prepared = queue
        let (fonts, language, exceptions) = (typesetter.fonts, typesetter.language, typesetter.hyphenationExceptions)
        for _ in 0..<helpers {
            queue.helperStarted()
            Thread.detachNewThread {
                let helper = Typesetter(fonts: fonts, language: language, hyphenationExceptions: exceptions)
                while let request = queue.next() {
                    let layout = helper.makeLayout(request)
                    // Made here, on the thread whose Pango objects the layout uses.
                    let drawable = layout.glyphLines != nil
                    if drawable && glyphsOnly { layout.releasePango() }
                    queue.finished(request, drawable ? layout : nil)
                }
                queue.helperDone(helper)
            }
        }
    }
}

/// The texts being laid out ahead, shared by the helpers and the page pass.
final class PreparedTexts: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [TextRequest]
    private var nextIndex = 0
    private var pending: Set<TextRequest>
    private var started: Set<TextRequest> = []
    private var ready: [TextRequest: TextLayout] = [:]
    private var running = 0
    /// Kept alive: their Pango objects are the ones the layouts they made use.
    private var helpers: [Typesetter] = []

    /// Drops a layout from `ready` once `layout(_:make:)` hands it out: a text asked for again is
    /// laid out again.
    private let forgetsHandedOut: Bool

    /// How many times the page pass got a text laid out ahead: a template asking for its words
    /// otherwise than its `textAhead` or `wordsAhead` said would leave this short.
    var handedOutCount: Int { condition.withLock { handedOut } }
    private var handedOut = 0

    init(_ requests: [TextRequest], forgettingHandedOut: Bool = false) {
        waiting = requests
        pending = Set(requests)
        forgetsHandedOut = forgettingHandedOut
    }

    func helperStarted() { condition.withLock { running += 1 } }

    func helperDone(_ helper: Typesetter) {
        condition.withLock {
            helpers.append(helper)
            running -= 1
            condition.broadcast()
        }
    }

    /// The next text no one has started, for a helper; nil when none is left.
    func next() -> TextRequest? {
        condition.withLock { takeNext() }
    }

    private func takeNext() -> TextRequest? {
        while nextIndex < waiting.count {
            let request = waiting[nextIndex]
            nextIndex += 1
            if started.insert(request).inserted { return request }
        }
        return nil
    }

    /// `layout` nil: only Pango can draw it, so the page pass lays it out again on its own thread.
    func finished(_ request: TextRequest, _ layout: TextLayout?) {
        condition.withLock {
            if let layout { ready[request] = layout } else { pending.remove(request) }
            condition.broadcast()
        }
    }

    /// The layout of `request` for the page pass's typesetter: ready, waited for, or made with
    /// `make` when no helper has started it. While a helper is on it, `make` lays out the next
    /// text no one has started, so this thread works instead of waiting. Nil for a text that was
    /// not laid out ahead.
    func layout(_ request: TextRequest, make: (TextRequest) -> TextLayout) -> TextLayout? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let layout = ready[request] {
                handedOut += 1
                if forgetsHandedOut {
                    ready[request] = nil
                    pending.remove(request)
                }
                return layout
            }
            guard pending.contains(request) else { return nil }
            let own = started.insert(request).inserted ? request : takeNext()
            if let own {
                condition.unlock()
                let layout = make(own)
                condition.lock()
                ready[own] = layout
                continue
            }
            condition.wait()
        }
    }

    /// Stops handing out texts and waits for the helpers to finish the ones they hold: after
    /// this, Pango objects of every layout may be used on this thread.
    func finish() {
        condition.withLock {
            nextIndex = waiting.count
            while running > 0 { condition.wait() }
        }
    }
}
