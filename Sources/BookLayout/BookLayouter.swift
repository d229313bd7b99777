import Foundation
import BookModel
import BookConfig
import BookResolve

/// The layout stage: a resolved book in, its page tree out. Page 1 is the cover (a title page in a
/// print interior); every entry of `pages` follows through its template; chapters open on the
/// right, spreads on the left. For print, the gutter grows with the page count as the printer's
/// table says, and the page count is padded to the printer's multiple.
public struct BookLayouter {
    public let typesetter: Typesetter
    /// Threads the long texts are laid out on (see `TextPrefetch`); the page tree is the same
    /// whatever the number.
    public var textThreads: Int

    /// False: once a page has been handed to `eachPage`, its text boxes leave the tree (their
    /// missing glyphs noted first), so a long book's text is not held to the end; for a caller that
    /// draws each page once and needs only page numbers, pictures and findings afterwards.
    public var keepsHandedOverText = true

    /// True: a book's contents pages are handed over last, once every chapter has its page, and
    /// the pages before and after them as they come; for a caller that puts the pages in order
    /// afterwards (`PrintPDF` reorders the drawn file's page tree). False: every page in order,
    /// so a book with contents is handed over only when it is laid out whole.
    public var handsOverContentsLast = false

    public init(typesetter: Typesetter, textThreads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.typesetter = typesetter
        self.textThreads = textThreads
    }

    public func layout(_ book: ResolvedBook) -> PageTree {
        layout(book) { (_: PageNode) throws(Never) in }
    }

    /// Lays the book out and hands each page to `eachPage` as soon as it is final, in order, while
    /// later texts are still being laid out: the PDF can be drawn as the pages come. A print book
    /// is laid out again when its gutter grows, so its pages are handed over only at the end.
    public func layout<E: Error>(_ book: ResolvedBook, eachPage: (PageNode) throws(E) -> Void) throws(E) -> PageTree {
        try withoutActuallyEscaping(eachPage) { (eachPage) throws(E) in try layout(book, handingOver: eachPage) }
    }

    private func layout<E: Error>(_ book: ResolvedBook, handingOver eachPage: @escaping (PageNode) throws(E) -> Void) throws(E) -> PageTree {
        var book = book
        let measure = MeasureFit.fit(&book, typesetter: typesetter)
        if book.profile != nil {
            // Room for the folio between the text and the printer's safety line, and for the
            // first line's font box under it.
            book.margins.bottom = LayoutContext.bottomMarginWithFolio(book, typesetter: typesetter)
            book.margins.top = LayoutContext.topMarginWithFontBox(book)
        }
        if textThreads > 1 {
            // Texts laid out ahead need only be drawn when a page's text leaves the tree once it is
            // handed over, and pages are handed over as they come: not for a print profile's book,
            // laid out again (from the same texts) when its gutter grows.
            TextPrefetch.start(TextPrefetch.requests(book, typesetter: typesetter, measureInset: (measure.inner, measure.outer)), on: typesetter, threads: textThreads,
                               glyphsOnly: !keepsHandedOverText && book.profile == nil && !PagePlanner.needsPlanning(book)
                                   && (handsOverContentsLast || !FrontMatter.wantsContents(book)))
        }
        // Also when a page could not be drawn: the helpers stop taking texts.
        defer { typesetter.finishPrepared() }
        // A book whose pages are planned as a whole is handed over once the plan holds.
        let planning = PagePlanner.needsPlanning(book)
        // The contents are filled in once the chapters have their pages.
        let streaming = book.profile == nil && !planning && (handsOverContentsLast || !FrontMatter.wantsContents(book)) ? eachPage : nil
        let none = Optional<(PageNode) throws(Never) -> Void>.none
        var plan = LayoutPlan()
        var tree = try layoutOnce(book, measure, plan, eachPage: streaming)
        func replan() {
            guard planning else { return }
            for _ in 0..<PagePlanner.rounds {
                guard let revised = PagePlanner.revise(plan, after: tree, book: book) else { break }
                plan = revised
                tree = layoutOnce(book, measure, plan, eachPage: none)
            }
        }
        replan()
        tree.findings += measure.findings
        // The gutter depends on the page count, which depends on the gutter: widen and lay out again
        // until it holds. The side margins also widen by as much as the text's ink reaches past the
        // printer's figures. They only ever grow, so this ends within the table's few brackets.
        if let profile = book.profile {
            for _ in 0..<4 {
                let insets = profile.safeInsets(pageCount: tree.pages.count)
                let short = InkReach.shortfall(tree, margins: book.margins, insets: insets)
                let inner = max(profile.gutterMargin(pages: tree.pages.count)?.points ?? 0, book.margins.inner + short.inner)
                let outer = book.margins.outer + max(0, short.outer)
                guard inner > book.margins.inner + 0.001 || outer > book.margins.outer + 0.001 else { break }
                book.margins.inner = max(inner, book.margins.inner)
                book.margins.outer = outer
                tree = layoutOnce(book, measure, plan, eachPage: none)
                replan()
                tree.findings += measure.findings
            }
        }
        if streaming == nil {
            for i in tree.pages.indices {
                try eachPage(tree.pages[i])
                // As when pages are handed over as they come (see `layoutOnce`).
                if !keepsHandedOverText, book.profile == nil {
                    tree.pages[i].items.removeAll { if case .text = $0 { true } else { false } }
                }
            }
        }
        tree.bodyMeasure = measure.characters
        return tree
    }

    private func layoutOnce<E: Error>(_ book: ResolvedBook, _ measure: MeasureFit.Outcome, _ plan: LayoutPlan,
                                      eachPage: ((PageNode) throws(E) -> Void)?) throws(E) -> PageTree {
        let ctx = LayoutContext(book: book, typesetter: typesetter)
        ctx.plan = plan
        ctx.measureInset = (measure.inner, measure.outer)
        // A template only changes the pages it adds, so those before are final once it returns.
        var handedOver = 0
        // Contents pages kept empty until the chapters have their pages (`Contents.fill`).
        var heldBack: [Int] = []
        var contentsFilled = false
        var missingGlyphs: [Finding] = []
        func give(_ index: Int, to eachPage: (PageNode) throws(E) -> Void) throws(E) {
            try eachPage(ctx.pages[index])
            if !keepsHandedOverText {
                // Reads the lines' glyphs only, no Pango call: safe while helpers still run.
                missingGlyphs += MissingGlyphs.findings(in: [ctx.pages[index]], fonts: typesetter.fonts)
                ctx.pages[index].items.removeAll { if case .text = $0 { true } else { false } }
                // Nor does the typesetter hold on to the short texts drawn there.
                typesetter.forgetRemembered()
            }
        }
        func handOver() throws(E) {
            guard let eachPage else { return }
            // A sunk chapter opening waits for the text that may start on it.
            while handedOver < (ctx.openingRoom?.index ?? ctx.pages.count) {
                if !contentsFilled, ctx.contentsPages.contains(handedOver) {
                    heldBack.append(handedOver)
                } else {
                    try give(handedOver, to: eachPage)
                }
                handedOver += 1
            }
            if contentsFilled {
                for index in heldBack { try give(index, to: eachPage) }
                heldBack = []
            }
        }
        FrontMatter.halfTitle(ctx)
        CoverTemplate.layout(ctx)
        FrontMatter.layout(ctx)
        try handOver()
        for page in book.pages {
            let waiting = ctx.openingRoom?.index
            TemplateRegistry.template(for: page.page).layout(page, ctx)
            // A sunk opening that the page after it did not fill stays a title page.
            if let waiting, ctx.openingRoom?.index == waiting { ctx.openingRoom = nil }
            try handOver()
        }
        ctx.openingRoom = nil
        BackMatter.layout(ctx)
        Contents.fill(ctx)
        contentsFilled = true
        if let profile = book.profile {
            PrintMarks.pad(to: profile.pageMultiple(trim: book.trim.width, book.trim.height), ctx)
            PrintMarks.add(profile, ctx)
        }
        try handOver()
        // The tree may be used with Pango on this thread from here: the helpers must be done.
        typesetter.finishPrepared()
        var findings = ctx.findings
        // Resolve named the pictures whose subject it was unsure of; now the pages showing them are known.
        for i in findings.indices where findings[i].kind == .subjectUnsure {
            let source = findings[i].sourcePage
            findings[i].physicalPages = ctx.pages.filter { !$0.art.isEmpty && $0.sourcePage == source && (source != nil || $0.role == .cover) }
                .map(\.number)
        }
        findings += missingGlyphs + MissingGlyphs.findings(in: ctx.pages, fonts: typesetter.fonts)
        if book.tokens.typography.body.hyphenate, typesetter.hyphenator == nil {
            findings.append(Finding(.warning, .noHyphenation,
                                    "no hyphenation dictionary for language \"\(book.language)\" in /usr/share/hyphen; justified text is set without hyphens"))
        }
        var tree = PageTree(trim: book.trim, pages: ctx.pages, findings: findings, title: book.book.title,
                            author: book.book.author, created: book.book.created)
        tree.geometry = ctx.geometry
        tree.chapters = ctx.chapters
        tree.language = book.language
        tree.subtitle = book.book.subtitle
        tree.keywords = [book.book.kind.rawValue] + [book.book.artStyle].compactMap { $0 }
        tree.margins = book.margins
        return tree
    }
}
