import Foundation
import BookBase
import CContentColour

/// Turns a PDF from cairo into a CMYK PDF/X-1a:2001 in this process: colours in the contents
/// and the pixels of RGB images converted through the press profile with Little CMS
/// (`CMYKTransform`, in `content_convert_cmyk`: qpdf's token filters), black text and thin rules
/// set in black ink alone (`BlackText`), then finished (`PDFFinisher`: boxes, info with the PDF/X
/// keys, output intent with the profile, PDF 1.3, no object streams, fixed dates).
///
/// The press profile is Ghostscript's SWOP-like CMYK profile with its colour-to-ink tables held
/// under the printer's total ink (`ICCProfile.inkLimited`). The pictures of a book come already
/// converted, as CMYK JPEGs (`CMYKPictures`), and pass through untouched. PDF/X-1a has no
/// transparency: bookrender draws none for such a printer, and a file that has some is refused
/// with the page named, never flattened behind the caller's back.
public enum CMYKConverter {
    public struct Options: Sendable, Equatable {
        /// Total area coverage in percent (C+M+Y+K); nil converts with the base profile unlimited.
        public var totalInkLimit: Double?
        /// The press profile colours are converted to; the default is Ghostscript's SWOP-like profile.
        public var baseProfile: URL
        public var outputConditionIdentifier: String
        public var outputCondition: String
        public var registryName: String
        /// Which text and rules print in black ink alone (nil: all colours converted alike).
        public var blackText: BlackText.Rule? = .standard

        public init(totalInkLimit: Double? = 240,
                    baseProfile: URL = URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc"),
                    outputConditionIdentifier: String = "CGATS TR 001",
                    outputCondition: String = "U.S. Web Coated (SWOP) printing, Ghostscript's default CMYK profile",
                    registryName: String = "http://www.color.org") {
            self.totalInkLimit = totalInkLimit; self.baseProfile = baseProfile
            self.outputConditionIdentifier = outputConditionIdentifier; self.outputCondition = outputCondition
            self.registryName = registryName
        }

        /// IngramSpark: PDF/X-1a, CMYK, at most 240 % ink.
        public static let ingramSpark = Options(totalInkLimit: 240)

        /// The same with a print profile's ink limit (nil: no limit).
        public static func limited(to maxInk: Double?) -> Options {
            var options = Options.ingramSpark
            options.totalInkLimit = maxInk
            return options
        }
    }

    /// How far under the printer's limit the profile's grid is held. Between grid points the colour
    /// engine interpolates through the tables' nonlinear output curves and rounds each channel to
    /// 8 bits; on an image holding 1M colours of the RGB cube that added up to 2.4 % over the grid.
    public static let inkLimitHeadroom = 3.0

    /// Converts `input` (RGB or grey) to CMYK PDF/X-1a at `output`, written atomically. `plan` is
    /// applied afterwards; pages without boxes in the plan keep the input's TrimBox and BleedBox
    /// (or the MediaBox), dates missing from the plan are the input's (never the clock's).
    /// `transform`: one made already for `options` (a book's pictures were converted with it).
    public static func convertToPDFX1a(_ input: URL, to output: URL, plan: FinishingPlan, options: Options = .ingramSpark,
                                       transform: CMYKTransform? = nil) throws {
        try convertToPDFX1a(input, to: output, plan: plan, options: options, transform: transform, inputDigest: nil)
    }

    /// `inputDigest`: a digest of `input`'s content (`PDFWriter`'s, for a file it drew), which with
    /// the conversion's settings stands for the converted file in its /ID; nil hashes that file.
    static func convertToPDFX1a(_ input: URL, to output: URL, plan: FinishingPlan, options: Options,
                                transform: CMYKTransform?, inputDigest: String?) throws {
        let transform = try transform ?? CMYKTransform(profile: try outputProfile(options),
                                                       inkLimit: options.totalInkLimit.map { $0 - inkLimitHeadroom })
        let doc = try QPDFDocument(reading: input, mapping: true)
        let rewritten = try rewrittenPlan(try conversionPlan(plan, from: doc, input: input, transform: transform, options: options),
                                          marked: plan.markedContents, in: doc)
        // Converted into the file that becomes `output`, then finished by appending to it: the
        // pictures are read and written once, not once more to finish.
        try AtomicOutput.write(to: output) { converted in
            try rewrite(input, into: converted, transform: transform, options: options)
            try PDFFinisher.finishInPlace(converted, as: output, plan: rewritten,
                                          contentDigest: try digest(of: converted, as: output, input: inputDigest, transform: transform,
                                                                    options: options))
        }
    }

    /// Converts `file`, a PDF `PDFWriter` drew with its pictures as CMYK JPEGs (`CMYKPictures`),
    /// to PDF/X-1a where it lies, and finishes it: the converted streams and the finishing are
    /// appended as an incremental update (two where the finishing must read converted contents),
    /// so the pictures are written once. A file whose update
    /// would leave more than `mostLeftBehind` of it behind (a long book's text: the contents it
    /// replaces) is rewritten whole instead, as `convertToPDFX1a` does. `target`: the PDF `file`
    /// becomes, for messages.
    static func convertDrawnInPlace(_ file: URL, as target: URL, plan: FinishingPlan, options: Options,
                                    transform: CMYKTransform, inputDigest: String) throws {
        let doc = try QPDFDocument(reading: file, mapping: true)
        let inPlace = try conversionPlan(plan, from: doc, input: file, transform: transform, options: options)
        let contentDigest = try digest(of: file, as: target, input: inputDigest, transform: transform, options: options)
        let changed = ChangedObjects()
        var message = [CChar](repeating: 0, count: 1024)
        let status = content_cmyk_changed_objects(file.path, blackRule(options), transform.contentConverter, mostLeftBehind,
                                                  ArtifactMarking.compression, { context, number, body, size in
            Unmanaged<ChangedObjects>.fromOpaque(context!).takeUnretainedValue()
                .objects.append((Int(number), Data(bytes: body!, count: size)))
        }, Unmanaged.passUnretained(changed).toOpaque(), &message, message.count)
        withExtendedLifetime(changed) {}
        switch status {
        case 0:
            // The finishing marks the artifacts of contents not marked as they were drawn (a
            // library's cairo compresses them itself), reading them from the file: those must be
            // the converted ones, so the conversion goes first as an update of its own.
            let finishingReadsContents = try plan.figureAltTexts != nil && (0..<doc.pageCount).contains { i in
                try !ArtifactMarking.keepsContent(of: try doc.page(i), at: i, in: doc, markedAlready: plan.markedContents,
                                                  markedPages: plan.markedPages)
            }
            var unchanged = doc
            if !finishingReadsContents {
                do {
                    try PDFFinisher.finishInPlace(file, as: target, plan: inPlace, contentDigest: contentDigest,
                                                  doc: doc, changed: changed.objects)
                    try setVersion13(file, as: target)
                    return
                } catch is IncrementalUpdate.Overlap {
                    // The finishing changes a stream the conversion changed too: as above. Nothing
                    // was written, but `doc` holds the finishing (its trailer may name objects
                    // only that update would have made), so the trailer is read from the file.
                    unchanged = try QPDFDocument(reading: file, mapping: true)
                }
            }
            try IncrementalUpdate(unchanged, adding: changed.objects, withItsOwnChanges: false)
                .append(to: file, naming: target, contentDigest: contentDigest)
            try setVersion13(file, as: target)
            try PDFFinisher.finishInPlace(file, as: target, plan: inPlace, contentDigest: contentDigest)
            return
        case 2:
            break
        default:
            throw FinishingError("converting \(target.path) to CMYK: \(String(cString: message))")
        }
        let rewritten = try rewrittenPlan(inPlace, marked: plan.markedContents, in: doc)
        try AtomicOutput.withTemporaryFile(for: target, suffix: "drawn.pdf") { drawn in
            guard rename(file.path, drawn.path) == 0 else { throw OutputError.cannotWrite(target) }
            try rewrite(drawn, into: file, transform: transform, options: options)
        }
        try PDFFinisher.finishInPlace(file, as: target, plan: rewritten, contentDigest: contentDigest)
    }

    /// The objects `content_cmyk_changed_objects` hands back, in object order.
    private final class ChangedObjects {
        var objects: [(id: Int, body: Data)] = []
    }

    /// PDF/X-1a:2001 is PDF 1.3: the header says so, in place (cairo writes "%PDF-1.5").
    private static func setVersion13(_ file: URL, as target: URL) throws {
        guard let handle = FileHandle(forUpdatingAtPath: file.path) else { throw OutputError.cannotWrite(target) }
        defer { try? handle.close() }
        do {
            let header = try handle.read(upToCount: 8) ?? Data()
            guard header.count == 8, header.starts(with: Data("%PDF-1.".utf8)) else {
                throw FinishingError("\(target.path): the drawn file has no PDF header")
            }
            try handle.seek(toOffset: 7)
            try handle.write(contentsOf: Data("3".utf8))
        } catch let error as FinishingError {
            throw error
        } catch {
            throw OutputError("cannot write \(target.path): \(AtomicOutput.reason(error))")
        }
    }

    /// The most of a file's size an in-place conversion may leave behind (the old versions of the
    /// streams it replaces): a CMYK file stays within 1.3× the plain export's size, and its
    /// pictures alone take it to about 1.2×, CMYK JPEGs being larger than the RGB ones.
    static let mostLeftBehind = 0.05

    /// The finishing plan for a file converted where it lies (its objects keep their numbers).
    private static func conversionPlan(_ plan: FinishingPlan, from doc: QPDFDocument, input: URL, transform: CMYKTransform,
                                       options: Options) throws -> FinishingPlan {
        var inPlace = try completedPlan(plan, from: doc, input: input)
        if let (page, what) = try PageTransparency.found(in: doc).min(by: { $0.key < $1.key }) {
            throw FinishingError("\(input.path): page \(page + 1) uses transparency (\(what)), which PDF/X-1a does not have; draw it without")
        }
        // PDF/UA is built on PDF 1.7; a PDF/X-1a file is PDF 1.3, its tags kept but claiming no more.
        inPlace.metadata?.pdfUAPart = nil
        inPlace.transparency = false
        inPlace.outputIntent = FinishingPlan.OutputIntent(
            profileData: transform.profile, outputConditionIdentifier: options.outputConditionIdentifier,
            outputCondition: options.outputCondition, registryName: options.registryName, info: options.outputCondition)
        return inPlace
    }

    /// `plan` for a copy of the file `doc` read (numbered anew): the contents `marked` as they
    /// were drawn are known by page instead.
    private static func rewrittenPlan(_ plan: FinishingPlan, marked: Set<Int>, in doc: QPDFDocument) throws -> FinishingPlan {
        var rewritten = plan
        guard !marked.isEmpty else { return rewritten }
        for i in 0..<(try doc.pageCount) {
            if let id = try doc.objectID(try doc.get(try doc.page(i), "/Contents")), marked.contains(id) {
                rewritten.markedPages.insert(i)
            }
        }
        rewritten.markedContents = []
        return rewritten
    }

    private static func blackRule(_ options: Options) -> content_black_rule {
        let rule = options.blackText ?? BlackText.Rule(maxLevel: -1, maxSpread: 0, maxLineWidth: 0)
        return content_black_rule(max_level: rule.maxLevel, max_spread: rule.maxSpread, max_line_width: rule.maxLineWidth)
    }

    /// `input` converted by qpdf's writer into `output`, every object written anew.
    private static func rewrite(_ input: URL, into output: URL, transform: CMYKTransform, options: Options) throws {
        var message = [CChar](repeating: 0, count: 1024)
        guard content_convert_cmyk(input.path, output.path, blackRule(options), transform.contentConverter, &message, message.count) == 0 else {
            throw FinishingError("converting \(input.path) to CMYK: \(String(cString: message))")
        }
    }

    /// The converted file's content digest: a function of the input's, the profile and the black
    /// rule, so the same input and settings give the same /ID and any change a different one;
    /// without the input's, the converted file hashed. `target`: the PDF it becomes, for messages.
    private static func digest(of converted: URL, as target: URL, input: String?, transform: CMYKTransform,
                               options: Options) throws -> String {
        let digest = ContentHash()
        let black = blackRule(options)
        if let input {
            digest.update(Data("\(input) \(transform.profileID) \(transform.inkLimit ?? 0) \(black.max_level) \(black.max_spread) \(black.max_line_width)\n".utf8))
        } else {
            guard digest.update(fileAt: converted.path) != nil else { throw OutputError.cannotWrite(target) }
        }
        return digest.finish()
    }

    /// The profile colours are converted with and that the output intent carries.
    public static func outputProfile(_ options: Options) throws -> Data {
        let base: Data
        do { base = try Data(contentsOf: options.baseProfile) } catch {
            throw FinishingError("cannot read the CMYK profile \(options.baseProfile.path) (Debian's libgs-common package installs it): \(error.localizedDescription)")
        }
        guard let limit = options.totalInkLimit else { return base }
        return try ICCProfile.inkLimited(base, totalInk: limit - inkLimitHeadroom,
                                         description: "Artifex CMYK SWOP Profile, total ink limited to \(format(limit)) %")
    }

    /// Fills in what the plan leaves open: boxes from the input when the plan has none, dates
    /// from the input, `/Trapped /False` and the PDF/X version keys.
    static func completedPlan(_ plan: FinishingPlan, from doc: QPDFDocument, input: URL) throws -> FinishingPlan {
        var plan = plan
        if plan.pages.isEmpty {
            for i in 0..<(try doc.pageCount) {
                let page = try doc.page(i)
                guard let media = try doc.inherited(page, "/MediaBox").flatMap({ try doc.rect($0) }) else {
                    throw FinishingError("\(input.path): page \(i + 1) has no usable MediaBox")
                }
                let bleed = try doc.has(page, "/BleedBox") ? try doc.rect(try doc.get(page, "/BleedBox")) : nil
                let trim = try doc.has(page, "/TrimBox") ? try doc.rect(try doc.get(page, "/TrimBox")) : nil
                plan.pages.append(.init(trimBox: trim ?? bleed ?? media, bleedBox: bleed ?? media))
            }
        }
        let info = try doc.get(try doc.trailer(), "/Info")
        let hasTitle = try doc.isDictionary(info) && doc.has(info, "/Title")
        if plan.info.title == nil && !hasTitle {
            throw FinishingError("\(input.path) has no title and the plan gives none; PDF/X requires one")
        }
        func inputDate(_ key: String) throws -> PDFDate? {
            guard try doc.isDictionary(info), try doc.has(info, key) else { return nil }
            let value = try doc.get(info, key)
            return try doc.isString(value) ? PDFDate(pdfString: try doc.utf8(value)) : nil
        }
        let fallback = PDFDate(iso8601: "2000-01-01T00:00:00Z")!
        let created = try plan.info.creationDate ?? inputDate("/CreationDate")
        plan.info.creationDate = created ?? fallback
        plan.info.modificationDate = try plan.info.modificationDate ?? inputDate("/ModDate") ?? created ?? fallback
        plan.info.trapped = false
        plan.info.pdfx = .x1a2001
        return plan
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}
