import Foundation
import BookBase
import BookConfig
import BookLayout
import BookResolve

/// The PDF as it leaves bookrender: cairo draws the pages, then the finishing step adds what cairo
/// cannot write (TrimBox/BleedBox, document info with proper dates, language, outline, page labels,
/// viewer preferences), and for a CMYK profile the pictures go in as CMYK JPEGs and the rest is
/// converted to PDF/X-1a (`CMYKConverter`), all in this process. Every step writes beside the
/// target and renames, so the target is either the old file or the finished new one.
public enum PrintPDF {
    /// Whether the finishing frees the document it read (qpdf's objects for every page and
    /// structure element: as long to free as to finish, for a long book). A process that ends once
    /// its one export is written may leave them to the operating system; one that goes on (a
    /// service, a batch, `watch`) must not.
    nonisolated(unsafe) public static var freesFinishedDocuments = true

    /// `threads`: 1 keeps the drawing's work on this thread.
    /// `tagged`: with the logical structure readers of accessible PDFs use (`StructureTags`).
    /// `attachments`: embedded only without a profile (PDF/X forbids them).
    public static func write(_ tree: PageTree, to url: URL, pages: Set<Int>? = nil, profile: PrintProfile? = nil,
                             tagged: Bool = true, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                             attachments: [PDFAttachment] = []) throws {
        var plan = finishingPlan(tree, pages: pages, profile: profile, tagged: tagged)
        plan.threads = threads
        if profile == nil { plan.attachments = attachments }
        // Without transparency where the printer takes none: translucent paint mixed with what
        // lies under it as it is drawn (`PageDrawer`).
        let opaque = profile.map { !$0.allowsTransparency || $0.isCMYK } ?? false
        guard let profile, profile.isCMYK else {
            // Drawn and finished in the same temporary file: the pictures are written once.
            try AtomicOutput.write(to: url) { tmp in
                let drawn = try PDFWriter.draw(tree, into: tmp, pages: pages, opaque: opaque, tagged: tagged, for: url, threads: threads)
                if tagged { plan.paragraphs = drawn.paragraphs }
                plan.markedContents = drawn.markedContents
                try PDFFinisher.finishDrawn(tmp, as: url, plan: plan, contentDigest: drawn.digest)
            }
            return
        }
        let options = CMYKConverter.Options.limited(to: profile.maxInk)
        let limit = profile.maxInk.map { $0 - CMYKConverter.inkLimitHeadroom }
        let transform = try CMYKTransform(profile: try CMYKConverter.outputProfile(options), inkLimit: limit)
        let pictures = CMYKPictures(transform: transform, quality: profile.jpegQuality ?? PrintProfile.defaultJPEGQuality,
                                    inkLimit: limit)
        try pictures.prepare(pictureAssets(tree, pages: pages), threads: threads)
        // Drawn, converted and finished in the same temporary file, as without a profile.
        try AtomicOutput.write(to: url) { tmp in
            let written = try PDFWriter.draw(tree, into: tmp, pages: pages, opaque: true, tagged: tagged, for: url,
                                             threads: threads, cmyk: pictures)
            if tagged { plan.paragraphs = written.paragraphs }
            plan.markedContents = written.markedContents
            try CMYKConverter.convertDrawnInPlace(tmp, as: url, plan: plan, options: options, transform: transform,
                                                  inputDigest: written.digest)
        }
    }

    /// The pictures the pages in `pages` draw, in order.
    static func pictureAssets(_ tree: PageTree, pages: Set<Int>?) -> [ImageAsset] {
        tree.pages.filter { pages?.contains($0.number) ?? true }.flatMap { $0.images.map(\.asset) }
    }

    /// Draws each page as layout hands it over, while later pages are still being laid out, then
    /// finishes the PDF: for a book without a print profile, written whole. `layout` lays the book
    /// out, calling its argument with each page in order, and returns the page tree; when it
    /// throws, nothing is written.
    public static func write(to url: URL, document: PDFDocument, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                             layout: (_ drawPage: (PageNode) throws -> Void) throws -> PageTree) throws -> PageTree {
        var laidOut: PageTree?
        try AtomicOutput.write(to: url) { tmp in
            let stream = try PDFPageStream(into: tmp, for: url, document: document, opaque: false, threads: threads)
            let tree = try layout { try stream.draw($0) }
            let digest = try stream.close()
            var plan = finishingPlan(tree, pages: nil, profile: nil, tagged: document.tagged)
            plan.threads = threads
            plan.attachments = document.attachments
            plan.markedContents = stream.markedContents
            plan.drawnOrder = try drawnOrder(of: tree, drawn: stream.drawnNumbers)
            if document.tagged { plan.paragraphs = stream.paragraphs }
            try PDFFinisher.finishInPlace(tmp, as: url, plan: plan, contentDigest: digest)
            laidOut = tree
        }
        return laidOut!
    }

    /// For each page of `tree`, its index among `drawn` (page numbers as they were drawn); nil
    /// when they were drawn in order.
    static func drawnOrder(of tree: PageTree, drawn: [Int]) throws -> [Int]? {
        let numbers = tree.pages.map(\.number)
        guard numbers != drawn else { return nil }
        let index = Dictionary(drawn.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        guard drawn.count == numbers.count, index.count == drawn.count, Set(numbers) == Set(drawn) else {
            throw RenderError("the layout handed over pages \(drawn.count) times for a book of \(numbers.count) pages")
        }
        return numbers.map { index[$0]! }
    }

    static func finishingPlan(_ tree: PageTree, pages: Set<Int>?, profile: PrintProfile?, tagged: Bool = true) -> FinishingPlan {
        let written = tree.pages.map(\.number).filter { pages?.contains($0) ?? true }
        let boxes = written.map { number -> FinishingPlan.PageBoxes in
            let b = tree.geometry.boxes(page: number, trim: tree.trim)
            return FinishingPlan.PageBoxes(trimBox: PDFRect(llx: b.trim[0], lly: b.trim[1], urx: b.trim[2], ury: b.trim[3]),
                                           bleedBox: PDFRect(llx: b.bleed[0], lly: b.bleed[1], urx: b.bleed[2], ury: b.bleed[3]))
        }
        let date = PDFDate(iso8601: tree.created ?? "") ?? PDFDate(iso8601: PDFWriter.fallbackDate)
        var plan = FinishingPlan(
            pages: boxes,
            info: .init(title: tree.title, author: tree.author, subject: tree.subtitle,
                        keywords: tree.keywords.isEmpty ? nil : tree.keywords, creator: "bookrender",
                        producer: "bookrender \(ProductVersion.current)",
                        creationDate: date, modificationDate: date),
            language: tree.language)
        if tagged { plan.figureAltTexts = StructureTags.figureAltTexts(tree, pages: pages) }
        plan.metadata = XMPMetadata(title: tree.title, author: tree.author, subject: tree.subtitle, keywords: tree.keywords,
                                    language: tree.language, date: tree.created.flatMap { PDFDate(iso8601: $0) })
        plan.displaysTitle = !tree.title.isEmpty
        plan.readsRightToLeft = tree.bindsOnRight
        // PDF/UA-1 is claimed only for a whole structure: a title, a language, every figure described.
        if tagged, !tree.title.isEmpty, !tree.language.isEmpty, plan.figureAltTexts?.allSatisfy({ !$0.isEmpty }) ?? false {
            plan.metadata?.pdfUAPart = 1
        }
        // Every export gets the chapters as an outline and the pages labelled as they are
        // numbered, so a reader's page box and bookmarks agree with the printed folios.
        let indexOf = Dictionary(uniqueKeysWithValues: written.enumerated().map { ($1, $0) })
        if profile?.bookmarks ?? true {
            plan.outline = tree.chapters.compactMap { c in indexOf[c.page].map { FinishingPlan.OutlineItem(title: c.title, pageIndex: $0) } }
        }
        if profile?.pageLabels ?? true, let first = written.first {
            // The printed folios are physical page numbers, and page 1 is the cover (or title page).
            plan.pageLabels = first == 1
                ? [.init(startPageIndex: 0, style: .none, prefix: profile?.interior ?? false ? "Title" : "Cover")]
                    + (written.count > 1 ? [.init(startPageIndex: 1, style: .decimal, firstNumber: written[1])] : [])
                : [.init(startPageIndex: 0, style: .decimal, firstNumber: first)]
        }
        guard let profile else { return plan }
        if profile.facingPages { plan.pageLayout = .twoPageRight }
        plan.transparency = profile.allowsTransparency
        return plan
    }
}
