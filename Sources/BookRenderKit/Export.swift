import Foundation
import Synchronization
import BookBase
import BookModel
import BookResolve
import BookConfig
import BookLayout
import BookRender

extension BookDocument {
    /// Lays the book out and writes what `options` asks for: the PDF (finished for the settings'
    /// print profile, after preflight), page PNGs and spread previews. Every file is written
    /// beside its target and renamed into place, and the PNGs replace the previous set only once
    /// all are written, so a failed export leaves the previous files as they were.
    public func export(_ options: ExportOptions) throws(BookRenderError) -> ExportReport {
        try options.check()
        let settings = try self.settings.checked()
        var paths = OutputPaths()
        if let file { paths.input(URL(fileURLWithPath: file), as: "the book") }
        if let pdf = options.pdf { paths.output(pdf, as: "the PDF", kind: .pdf) }
        if let epub = options.epub {
            paths.output(epub, as: "the EPUB", kind: .epub)
            for name in book.narration?.files ?? [] { paths.input(folder.appendingPathComponent(name), as: "the narration \(name)") }
        }
        if let report = options.report { paths.output(report, as: "the report", kind: .json) }
        if let png = options.png {
            // The pages a previous export left there are what this one may replace; checked
            // before anything is written.
            let ranges = options.pages
            paths.pageSet(in: png.folder, showing: ranges.map { ranges in { page in ranges.contains { $0.contains(page) } } })
        }
        try paths.verify(replacingReadOnly: options.force)

        var timings: [ExportReport.StageTime] = [.init(stage: "load", seconds: loadSeconds)]
        var clock = StageClock()
        if let count = options.preview {
            // The pages after those shown are not read: the first `count` pages are the cover and
            // at most `count - 1` entries, and one more entry is kept since a chapter's opening
            // waits for the text after it; the cover alone needs none. No page's layout depends on
            // a later entry's pictures.
            var shown = self
            // A storybook without a cover picture shows a page's picture on its cover: its pages
            // are resolved (their pictures analysed, once, into the cache) to find the one the
            // book's own cover shows; only the pages shown are laid out.
            let coverFromPages = book.cover?.photo == nil && book.kind == .storybook
            if !coverFromPages { shown.book.pages = Array(book.pages.prefix(count == 1 ? 0 : count)) }
            let (resolved, resources) = try shown.resolveWithResources()
            timings.append(.init(stage: "resolve", seconds: clock.elapsed))
            return try shown.exportPreview(count, resolved, resources, options, settings: settings, paths: paths, timings: timings)
        }
        let (resolved, resources) = try resolveWithResources()
        timings.append(.init(stage: "resolve", seconds: clock.elapsed))
        try refusePartialPrintFile(resolved.profile, options)
        // Pages too large to draw as PNGs are refused before any output is begun.
        if let png = options.png {
            try BookRenderError.wrap { try PNGPageWriter(dpi: png.dpi, spreads: png.spreads).checkSize(trim: resolved.trim) }
        }
        // Measured before anything is drawn: a recording that is missing or too short stops the
        // export before it writes a file.
        // The recordings go into the EPUB and into a PDF that is not for a printer.
        let attachesNarration = options.pdf != nil && resolved.profile == nil
        let narration = options.epub == nil && !attachesNarration ? [] : try narrationClips()
        let attachments = attachesNarration ? Self.attachments(narration) : []
        for asset in resolved.allAssets { if let url = asset.file { paths.input(url, as: asset.origin) } }
        try paths.verify(replacingReadOnly: options.force)
        if options.pdf != nil {
            clock = StageClock()
            try checkPictureData(resolved, threads: settings.workers, only: \.passesThroughToPDF)
            timings.append(.init(stage: "check pictures", seconds: clock.elapsed))
        }

        return try BookRenderError.wrap {
            var fonts = Set<String>()
            let tree: PageTree
            let selected: Set<Int>?
            clock = StageClock()
            if let pdf = options.pdf, resolved.profile == nil, options.pages == nil, options.epub == nil {
                // Pages are drawn as layout makes them; a finding that stops the export stops it
                // before the PDF replaces anything.
                try AtomicOutput.makeFolder(pdf.deletingLastPathComponent())
                selected = nil
                var document = PDFDocument(trim: resolved.trim, geometry: PrintGeometry(nil), title: resolved.book.title,
                                           author: resolved.book.author, created: resolved.book.created, tagged: options.tagged)
                document.attachments = attachments
                var drawn = 0
                tree = try PrintPDF.write(to: pdf, document: document, threads: settings.workers) { drawPage in
                    var layouter = BookLayouter(typesetter: try typesetter(resolved, resources), textThreads: settings.workers)
                    // Without PNGs to draw afterwards, a drawn page's text need not stay in memory.
                    layouter.keepsHandedOverText = options.png != nil
                    // The file's page tree is put in order when it is finished.
                    layouter.handsOverContentsLast = true
                    let tree = try layouter.layout(resolved) { page in
                        for box in page.textBoxes { fonts.formUnion(box.layout.fontFiles) }
                        try drawPage(page)
                        drawn += 1
                        options.progress?(ExportProgress(stage: .pdf, done: drawn, total: nil))
                    }
                    try refuseUnderStrict(tree)
                    return tree
                }
                timings.append(.init(stage: "layout+pdf", seconds: clock.elapsed))
            } else {
                tree = BookLayouter(typesetter: try typesetter(resolved, resources), textThreads: settings.workers).layout(resolved)
                for page in tree.pages { for box in page.textBoxes { fonts.formUnion(box.layout.fontFiles) } }
                timings.append(.init(stage: "layout", seconds: clock.elapsed))
                selected = try options.selectedPages(of: tree.pages.count)
                try refuseUnderStrict(tree)
                if let pdf = options.pdf {
                    clock = StageClock()
                    if let profile = resolved.profile {
                        let errors = PageTreePreflight.check(tree, profile: profile, binding: settings.binding).errors
                        if !errors.isEmpty && !options.force {
                            throw BookRenderError(.preflightFailed,
                                "preflight found \(errors.count) error(s) for \(profile.name); fix them, or pass --force to write the PDF anyway",
                                diagnostics: errors.map(Diagnostic.init))
                        }
                    }
                    try AtomicOutput.makeFolder(pdf.deletingLastPathComponent())
                    try PrintPDF.write(tree, to: pdf, pages: selected, profile: resolved.profile, tagged: options.tagged, threads: settings.workers,
                                       attachments: attachments)
                    let count = selected?.count ?? tree.pages.count
                    options.progress?(ExportProgress(stage: .pdf, done: count, total: count))
                    timings.append(.init(stage: "pdf", seconds: clock.elapsed))
                }
            }

            var pngFiles: [URL] = []
            if let png = options.png {
                clock = StageClock()
                let pageCount = selected?.count ?? tree.pages.count
                let pagesWritten = Atomic<Int>(0), reports = Mutex<Void>(())
                let progress = options.progress
                let pageWritten: @Sendable () -> Void = {
                    guard let progress else { return }
                    // Counted and reported under one lock, so the counts arrive in order.
                    reports.withLock { _ in
                        let done = pagesWritten.wrappingAdd(1, ordering: .relaxed).newValue
                        progress(ExportProgress(stage: .png, done: done, total: pageCount))
                    }
                }
                pngFiles = try PageSetOutput.write(into: png.folder, pages: selected) { staging in
                    if settings.workers == 1 {
                        var writer = PNGPageWriter(dpi: png.dpi, spreads: png.spreads)
                        writer.pageWritten = pageWritten
                        return try writer.write(tree, to: staging, pages: selected)
                    }
                    var writer = ParallelPNGWriter(dpi: png.dpi, spreads: png.spreads, workers: settings.workers)
                    writer.pageWritten = pageWritten
                    // Only for a book with a text Pango must draw: each worker lays it out again, on one thread.
                    return try writer
                        .write(tree, to: staging, pages: selected) {
                            BookLayouter(typesetter: try typesetter(resolved, resources), textThreads: 1).layout(resolved)
                        }
                }
                timings.append(.init(stage: "png", seconds: clock.elapsed))
            }

            var epubOutcome: EPUBOutcome?
            if let epub = options.epub {
                clock = StageClock()
                _ = tree.prepareGlyphRuns()
                epubOutcome = try EPUBWriter().write(tree, book: epubBook(tree, narration: narration), to: epub)
                timings.append(.init(stage: "epub", seconds: clock.elapsed))
            }

            var report = ExportReport(tree: tree, document: self, resolved: resolved, fonts: fonts)
            report.pdf = options.pdf?.path
            report.epub = options.epub?.path
            if let epubOutcome {
                report.narratedPages = epubOutcome.narratedPages
                report.findings += epubOutcome.fontsNotEmbedded.map { font in
                    Diagnostic(.warning, stage: .layout, kind: "fontNotEmbedded",
                               message: "the EPUB sets the text of \(font.file) in the reader's own fonts: \(font.reason)")
                }
            }
            report.writtenPages = tree.pages.map(\.number).filter { selected?.contains($0) ?? true }
            report.pngFiles = pngFiles.map(\.path)
            if let profile = resolved.profile, options.pdf != nil {
                report.findings += PageTreePreflight.check(tree, profile: profile, binding: settings.binding).map(Diagnostic.init)
            }
            report.timings = timings
            if resolved.leavesPageColourToPaper {
                let colour = resolved.tokens.palette.background
                report.paper = .init(pageColour: colour.hex, suggested: PaperStock.suggested(for: colour))
            }
            if options.keepPageTree { report.pageTree = tree }
            if let url = options.report { try JSONOutput.write(CommandReport(command: "export", report), to: url) }
            return report
        }
    }

    /// With `strict`, an error or a missing glyph stops the export.
    func refuseUnderStrict(_ tree: PageTree) throws(BookRenderError) {
        guard settings.strict, let bad = tree.findings.first(where: { $0.severity == .error || $0.kind == .missingGlyph }) else { return }
        throw BookRenderError(.invalidBook, "--strict: \(bad.located)", diagnostics: [Diagnostic(bad)])
    }
}

extension ResolvedBook {
    /// Every picture the book draws, the cover's and the main character's included.
    var allAssets: [ImageAsset] {
        ([cover.image.asset, mainCharacterImage] + pages.map(\.image.asset) + [authorPhoto, publisherLogo]).compactMap { $0 }
    }
}
