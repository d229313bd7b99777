import Foundation
import BookBase
import CQPDF

/// Adds to a PDF what cairo 1.16 cannot write: print boxes, document info with proper `D:` dates,
/// `/Lang`, bookmarks, page labels, viewer preferences, an output intent, and the `/CIDToGIDMap`
/// cairo leaves out of its TrueType fonts (`CIDToGIDMaps`).
///
/// Two ways to write it. `finish(_:plan:to:)` writes a new file whole through qpdf, beside the
/// target and renamed over it, with an `/ID` qpdf derives from the content. `finishInPlace`
/// appends the changed objects to the PDF as an incremental update (PDF 32000-1 §7.5.6), which is
/// how a freshly drawn PDF is finished: its megabytes of pictures are not read and written again.
public enum PDFFinisher {
    public static func finish(_ input: URL, plan: FinishingPlan, to output: URL) throws {
        let doc = try QPDFDocument(reading: input)
        if !plan.transparency { try refuseTransparency(doc, in: input) }
        try apply(plan, to: doc, input: input, source: input)
        if !plan.transparency { try PageGroups.remove(doc) }

        // Without this qpdf would keep the first half of an existing (clock-based) ID.
        try doc.remove(try doc.trailer(), "/ID")
        try AtomicOutput.write(to: output) { tmp in try doc.write(to: tmp, naming: output, options: QPDFDocument.WriteOptions()) }
    }

    /// Finishes a PDF cairo just drew into `file`, in place.
    static func finishDrawn(_ file: URL, as target: URL, plan: FinishingPlan, contentDigest: String) throws {
        try finishInPlace(file, as: target, plan: plan, contentDigest: contentDigest)
    }

    /// A printer that takes no transparency gets none: a page that still has some is a fault of
    /// the drawing (or of a PDF from elsewhere), named with what it uses.
    static func refuseTransparency(_ doc: QPDFDocument, in file: URL) throws {
        if let (page, what) = try PageTransparency.found(in: doc).min(by: { $0.key < $1.key }) {
            throw FinishingError("\(file.path): page \(page + 1) uses transparency (\(what)), which the printer does not take")
        }
    }

    /// Appends the finishing to `file` itself. `contentDigest` stands for the content already in
    /// the file (see `PDFSink`); with the update it makes the `/ID`, so the same book gives the
    /// same bytes. The caller owns `file`: it is a temporary file, renamed into
    /// place afterwards, so a failure here never leaves a half-updated PDF at the target.
    ///
    /// `doc`: `file` read already (nil reads it); `changed`: objects of `file` changed by the
    /// caller (`CMYKConverter`'s converted streams), appended in the same update, which throws
    /// `IncrementalUpdate.Overlap` without writing when the finishing changes one of them too.
    static func finishInPlace(_ file: URL, as target: URL, plan: FinishingPlan, contentDigest: String,
                              doc read: QPDFDocument? = nil, changed: [(id: Int, body: Data)] = []) throws {
        let update: IncrementalUpdate
        let release = DocumentRelease()
        do {
            let doc = try read ?? QPDFDocument(reading: file, mapping: true)
            doc.writesOwnStreams = true
            try apply(plan, to: doc, input: file, source: file)
            if !plan.transparency {
                try refuseTransparency(doc, in: file)
                try PageGroups.remove(doc)
            }
            update = try IncrementalUpdate(doc, adding: changed)
            release.start(doc)
        }
        // Freed by the time this returns, as before, but while the update is written.
        defer { release.wait() }
        try update.append(to: file, naming: target, contentDigest: contentDigest)
    }

    /// Frees a document (qpdf's objects for every page and stream of a long book) on another
    /// thread; or keeps it for the process to end with (`PrintPDF.freesFinishedDocuments`).
    private final class DocumentRelease: @unchecked Sendable {
        private var doc: QPDFDocument?
        private let group = DispatchGroup()
        nonisolated(unsafe) private static var keptToExit: [QPDFDocument] = []
        private static let keeping = NSLock()

        func start(_ doc: QPDFDocument) {
            guard PrintPDF.freesFinishedDocuments else {
                Self.keeping.withLock { Self.keptToExit.append(doc) }
                return
            }
            self.doc = doc
            DispatchQueue.global().async(group: group) { self.doc = nil }
        }

        func wait() { group.wait() }
    }

    /// `source`: the file `doc` was read from (`input` itself, or `input` flattened).
    private static func apply(_ plan: FinishingPlan, to doc: QPDFDocument, input: URL, source: URL) throws {
        if let order = plan.drawnOrder { try PageOrder.apply(order, to: doc, input: input) }
        // The pages' artifact marking goes on beside the rest of the finishing, from the start.
        let marking: ArtifactMarking.Marking?
        do {
            marking = plan.figureAltTexts == nil ? nil
                : try ArtifactMarking.start(doc, threads: plan.threads, markedAlready: plan.markedContents, markedPages: plan.markedPages)
        } catch let error as FinishingError {
            throw FinishingError("\(source.path): \(error.message)")
        }
        let count = try doc.pageCount
        var pages: [QPDFDocument.Handle] = []
        var media: [PDFRect] = []
        for i in 0..<count {
            let page = try doc.page(i)
            let mediaBox = try doc.inherited(page, "/MediaBox")
            defer { if let mediaBox { doc.release(mediaBox) } }
            guard let box = try mediaBox.flatMap({ try doc.rect($0) }) else {
                throw FinishingError("\(input.path): page \(i + 1) has no usable MediaBox")
            }
            pages.append(page)
            media.append(box)
        }
        try plan.validate(pageCount: count, mediaBoxes: media)

        for (page, boxes) in zip(pages, plan.pages) {
            for (key, box) in [("/TrimBox", boxes.trimBox), ("/BleedBox", boxes.bleedBox)] {
                let array = try doc.rectArray(box)
                try doc.set(page, key, array)
                doc.release(array)
            }
            if let art = boxes.artBox {
                try doc.set(page, "/ArtBox", try doc.rectArray(art))
            } else {
                try doc.remove(page, "/ArtBox")
            }
        }
        try writeInfo(plan.info, into: doc)
        try writeCatalog(plan, pages: pages, into: doc)
        try CIDToGIDMaps.addMissing(doc)
        if let alts = plan.figureAltTexts {
            try StructureFinishing.wrapInDocument(doc, joiningParagraphs: plan.paragraphs, sortingByPage: plan.drawnOrder != nil,
                                                  input: input)
            try StructureFinishing.writeAltTexts(alts, into: doc, input: input)
        }
        do {
            try marking?.finish(into: doc)
        } catch let error as FinishingError {
            throw FinishingError("\(source.path): \(error.message)")
        }
        if let metadata = plan.metadata { try StructureFinishing.writeMetadata(metadata, into: doc) }
    }

    private static func writeInfo(_ info: FinishingPlan.DocumentInfo, into doc: QPDFDocument) throws {
        let trailer = try doc.trailer()
        var dict = try doc.get(trailer, "/Info")
        if try !doc.isDictionary(dict) {
            dict = try doc.indirect(try doc.dictionary())
            try doc.set(trailer, "/Info", dict)
        }
        let texts: [(String, String?)] = [
            ("/Title", info.title), ("/Author", info.author), ("/Subject", info.subject),
            ("/Keywords", info.keywords?.joined(separator: ", ")), ("/Creator", info.creator), ("/Producer", info.producer),
        ]
        for case let (key, value?) in texts { try doc.set(dict, key, try doc.text(value)) }
        for (key, date) in [("/CreationDate", info.creationDate), ("/ModDate", info.modificationDate)] {
            if let date {
                try doc.set(dict, key, try doc.bytes(date.string))
            } else if try doc.has(dict, key) {
                // cairo 1.16 writes the date without its `D:` prefix; strict validators reject that.
                let existing = try doc.get(dict, key)
                if try doc.isString(existing) {
                    let text = try doc.utf8(existing)
                    if !text.hasPrefix("D:"), let fixed = PDFDate(pdfString: text) {
                        try doc.set(dict, key, try doc.bytes(fixed.string))
                    }
                }
            }
        }
        if let trapped = info.trapped { try doc.set(dict, "/Trapped", try doc.name(trapped ? "True" : "False")) }
        if let pdfx = info.pdfx {
            try doc.set(dict, "/GTS_PDFXVersion", try doc.text(pdfx.version))
            try doc.set(dict, "/GTS_PDFXConformance", try doc.text(pdfx.conformance))
        }
    }

    private static func writeCatalog(_ plan: FinishingPlan, pages: [QPDFDocument.Handle], into doc: QPDFDocument) throws {
        let root = try doc.root()
        if let language = plan.language { try doc.set(root, "/Lang", try doc.text(language)) }
        if let layout = plan.pageLayout { try doc.set(root, "/PageLayout", try doc.name(layout.rawValue)) }
        if plan.displaysTitle || plan.readsRightToLeft {
            var preferences = try doc.get(root, "/ViewerPreferences")
            if try !doc.isDictionary(preferences) { preferences = try doc.dictionary() }
            if plan.displaysTitle { try doc.set(preferences, "/DisplayDocTitle", try doc.boolean(true)) }
            if plan.readsRightToLeft { try doc.set(preferences, "/Direction", try doc.name("R2L")) }
            try doc.set(root, "/ViewerPreferences", preferences)
        }
        if let mode = plan.pageMode ?? (plan.outline.isEmpty ? nil : .useOutlines) {
            try doc.set(root, "/PageMode", try doc.name(mode.rawValue))
        }
        if !plan.outline.isEmpty {
            let outlines = try doc.indirect(try doc.dictionary([("/Type", try doc.name("Outlines"))]))
            let visible = try addOutlineItems(plan.outline, parent: outlines, pages: pages, doc: doc)
            try doc.set(outlines, "/Count", try doc.integer(visible))
            try doc.set(root, "/Outlines", outlines)
        }
        if !plan.pageLabels.isEmpty {
            var nums: [QPDFDocument.Handle] = []
            for range in plan.pageLabels {
                var entries: [(String, QPDFDocument.Handle)] = []
                if range.style != .none { entries.append(("/S", try doc.name(range.style.rawValue))) }
                if let prefix = range.prefix { entries.append(("/P", try doc.text(prefix))) }
                if range.firstNumber != 1 { entries.append(("/St", try doc.integer(range.firstNumber))) }
                nums.append(try doc.integer(range.startPageIndex))
                nums.append(try doc.dictionary(entries))
            }
            try doc.set(root, "/PageLabels", try doc.dictionary([("/Nums", try doc.array(nums))]))
        }
        if let intent = plan.outputIntent {
            try doc.set(root, "/OutputIntents", try doc.array([try outputIntent(intent, doc: doc)]))
        }
        try embed(plan.attachments, into: doc)
    }

    /// Links `items` as siblings under `parent`; returns how many outline entries show when the
    /// document opens (the parent's `/Count`).
    private static func addOutlineItems(_ items: [FinishingPlan.OutlineItem], parent: QPDFDocument.Handle,
                                        pages: [QPDFDocument.Handle], doc: QPDFDocument) throws -> Int {
        let handles = try items.map { _ in try doc.indirect(try doc.dictionary()) }
        var visible = 0
        for (i, item) in items.enumerated() {
            let h = handles[i]
            try doc.set(h, "/Title", try doc.text(item.title))
            try doc.set(h, "/Parent", parent)
            if i > 0 { try doc.set(h, "/Prev", handles[i - 1]) }
            if i + 1 < handles.count { try doc.set(h, "/Next", handles[i + 1]) }
            try doc.set(h, "/Dest", try destination(item.destination, page: pages[item.pageIndex], doc: doc))
            visible += 1
            if !item.children.isEmpty {
                let below = try addOutlineItems(item.children, parent: h, pages: pages, doc: doc)
                // A closed item's count is negative: how many would show if it were opened.
                try doc.set(h, "/Count", try doc.integer(item.isOpen ? below : -below))
                if item.isOpen { visible += below }
            }
        }
        if let first = handles.first, let last = handles.last {
            try doc.set(parent, "/First", first)
            try doc.set(parent, "/Last", last)
        }
        return visible
    }

    private static func destination(_ d: FinishingPlan.Destination, page: QPDFDocument.Handle, doc: QPDFDocument) throws -> QPDFDocument.Handle {
        switch d {
        case .fit:
            return try doc.array([page, try doc.name("Fit")])
        case let .xyz(left, top, zoom):
            func value(_ v: Double?) throws -> QPDFDocument.Handle { try v.map { try doc.number($0) } ?? doc.null() }
            return try doc.array([page, try doc.name("XYZ"), try value(left), try value(top), try value(zoom)])
        }
    }

    private static func outputIntent(_ intent: FinishingPlan.OutputIntent, doc: QPDFDocument) throws -> QPDFDocument.Handle {
        let profile: Data
        if let data = intent.profileData {
            profile = data
        } else {
            do { profile = try Data(contentsOf: intent.profile) } catch {
                throw FinishingError("cannot read output intent profile \(intent.profile.path): \(error.localizedDescription)")
            }
        }
        let components = try ICCProfile.componentCount(profile, path: intent.profile.path)
        // Compressed here: an incremental update writes a stream as it is given.
        let stream = try doc.indirect(try doc.stream(data: Data(try PlainStreams.compressed(Array(profile))), dictionary: [
            ("/Filter", try doc.name("FlateDecode")), ("/N", try doc.integer(components)),
        ]))
        var entries: [(String, QPDFDocument.Handle)] = [
            ("/Type", try doc.name("OutputIntent")), ("/S", try doc.name("GTS_PDFX")),
            ("/OutputConditionIdentifier", try doc.text(intent.outputConditionIdentifier)),
        ]
        if let c = intent.outputCondition { entries.append(("/OutputCondition", try doc.text(c))) }
        if let r = intent.registryName { entries.append(("/RegistryName", try doc.text(r))) }
        if let i = intent.info { entries.append(("/Info", try doc.text(i))) }
        entries.append(("/DestOutputProfile", stream))
        return try doc.indirect(try doc.dictionary(entries))
    }
}
