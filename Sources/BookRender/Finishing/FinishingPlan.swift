import Foundation
import BookModel

/// A rectangle in PDF user space: points, origin at the bottom left, written `[llx lly urx ury]`.
public struct PDFRect: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var llx: Double, lly: Double, urx: Double, ury: Double

    public init(llx: Double, lly: Double, urx: Double, ury: Double) {
        self.llx = llx; self.lly = lly; self.urx = urx; self.ury = ury
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(llx: x, lly: y, urx: x + width, ury: y + height)
    }

    public var width: Double { urx - llx }
    public var height: Double { ury - lly }

    /// Moves each edge inwards by its own amount (negative values move it outwards).
    public func inset(left: Double, bottom: Double, right: Double, top: Double) -> PDFRect {
        PDFRect(llx: llx + left, lly: lly + bottom, urx: urx - right, ury: ury - top)
    }

    /// Within `other`, allowing for the rounding a writer applies to the numbers.
    public func isInside(_ other: PDFRect, tolerance: Double = 0.01) -> Bool {
        llx >= other.llx - tolerance && lly >= other.lly - tolerance
            && urx <= other.urx + tolerance && ury <= other.ury + tolerance
    }

    public var description: String { "[\(llx) \(lly) \(urx) \(ury)]" }
}

/// A PDF date string, `D:YYYYMMDDHHmmSSZ` (always UTC, so a given instant is always written the same).
public struct PDFDate: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public let string: String

    /// From the ISO 8601 form books carry (`2024-05-12T19:30:00Z`, with or without fractional
    /// seconds or an offset); nil when it is not one.
    public init?(iso8601 text: String) {
        var scan = DigitScanner(text)
        guard let y = scan.number(4), scan.take("-"), let mo = scan.number(2), scan.take("-"), let d = scan.number(2),
              scan.take("T") || scan.take(" "), let h = scan.number(2), scan.take(":"), let mi = scan.number(2),
              scan.take(":"), let s = scan.number(2) else { return nil }
        if scan.take(".") {
            guard !scan.digits().isEmpty else { return nil }
        }
        var offsetSeconds = 0
        if !scan.take("Z"), let sign = scan.take("+") ? 1 : scan.take("-") ? -1 : nil {
            guard let oh = scan.number(2) else { return nil }
            _ = scan.take(":")
            guard let om = scan.number(2) else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        }
        guard scan.atEnd, mo >= 1, mo <= 12, d >= 1, d <= 31, h < 24, mi < 60, s < 61 else { return nil }
        let date = CivilDate.instant(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        self.init(date.addingTimeInterval(TimeInterval(-offsetSeconds)))
    }

    public init(_ date: Date) {
        let c = CivilDate.components(of: date)
        string = String(format: "D:%04d%02d%02d%02d%02d%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    /// Repairs a date as cairo 1.16 writes it (`20240101000000Z`, no `D:`); nil when it is not a
    /// PDF date with or without the prefix: `YYYY[MM[DD[HH[mm[SS]]]]]` and an optional zone, `Z`
    /// or `+HH'mm'` (each apostrophe and the minutes optional).
    public init?(pdfString text: String) {
        let body = text.hasPrefix("D:") ? String(text.dropFirst(2)) : text
        var scan = DigitScanner(body)
        let count = scan.digits().count
        guard count >= 4, count <= 14, count % 2 == 0 else { return nil }
        if !scan.take("Z"), scan.take("+") || scan.take("-") {
            guard scan.number(2) != nil else { return nil }
            _ = scan.take("'")
            if scan.number(2) != nil { _ = scan.take("'") }
        }
        guard scan.atEnd else { return nil }
        string = "D:" + body
    }

    public var description: String { string }

    /// The same instant as XMP writes it (`2024-05-12T19:30:00Z`); nil for a partial date.
    public var xmpString: String? {
        let d = Array(string.dropFirst(2))
        guard d.count == 15, d[14] == "Z" else { return nil }
        let s = String(d)
        func part(_ from: Int, _ count: Int) -> Substring { s.dropFirst(from).prefix(count) }
        return "\(part(0, 4))-\(part(4, 2))-\(part(6, 2))T\(part(8, 2)):\(part(10, 2)):\(part(12, 2))Z"
    }
}

/// Everything the finishing step adds to a PDF that cairo wrote. Fields left nil (or empty) leave
/// what the input has untouched, except that a date lacking its `D:` prefix is always repaired.
public struct FinishingPlan: Sendable, Equatable {
    /// One entry per page, in page order; empty leaves every page's boxes as they are.
    public var pages: [PageBoxes]
    public var info: DocumentInfo
    /// The catalog's `/Lang`, a BCP 47 tag ("en-US").
    public var language: String?
    /// Bookmarks; written as `/Outlines`, replacing any the input had.
    public var outline: [OutlineItem]
    /// Written as the `/PageLabels` number tree; the first range must start at page index 0.
    public var pageLabels: [PageLabelRange]
    public var pageLayout: PageLayout?
    /// nil: `/UseOutlines` when there is an outline, otherwise untouched.
    public var pageMode: PageMode?
    /// `/ViewerPreferences << /DisplayDocTitle true >>`: viewers show the title rather than the
    /// file's name, as PDF/UA asks (ISO 14289-1, 7.1).
    public var displaysTitle = false
    /// `/ViewerPreferences << /Direction /R2L >>`: a book bound on the right, its spreads shown right to left.
    public var readsRightToLeft = false
    /// Replaces the catalog's `/OutputIntents` with this one.
    public var outputIntent: OutputIntent?
    /// false: the file must have no transparency (PDF/X-1a, KDP, Lulu). cairo's page groups go,
    /// and a page that still draws with transparency is refused (`PageTransparency` names what):
    /// bookrender draws none for such a printer.
    public var transparency = true
    /// For a tagged PDF: each `Figure` structure element's `/Alt`, in the structure tree's order
    /// (an empty string writes none). nil leaves the structure as it is.
    public var figureAltTexts: [String]?
    /// For a tagged PDF: for each `P` element, in the structure tree's order, the index of the
    /// element holding the first part of its paragraph (its own for a paragraph's first part).
    /// The later parts of a paragraph a page break divided are joined to the first, one element
    /// with marked content on each page. A count that differs from the tree's `P` elements is a
    /// `FinishingError`. nil leaves the paragraphs as they are.
    public var paragraphs: [Int]?
    /// Written as the catalog's `/Metadata`, replacing any the input had.
    public var metadata: XMPMetadata?
    /// Files embedded in the PDF (`PDFAttachment`).
    public var attachments: [PDFAttachment] = []
    /// How many threads the finishing may work on (the artifact marking of a tagged PDF's pages).
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// For pages drawn out of order (a book's contents, filled in last): for each page in the
    /// book's order, its index among the pages as drawn. The page tree and the structure tree are
    /// put in the book's order before anything else is finished; `pages`, `outline` and
    /// `pageLabels` are in the book's order. nil: drawn in order.
    public var drawnOrder: [Int]?
    /// Page content streams (by object number) whose artifacts are marked already: the PDF's
    /// sink marked them as cairo wrote them (see `PlainStreams`).
    public var markedContents: Set<Int> = []
    /// Pages (by index, in the finished order) whose content is marked already, for a file whose
    /// objects were numbered anew since they were written (the CMYK conversion's copy).
    public var markedPages: Set<Int> = []

    public init(pages: [PageBoxes] = [], info: DocumentInfo = DocumentInfo(), language: String? = nil,
                outline: [OutlineItem] = [], pageLabels: [PageLabelRange] = [], pageLayout: PageLayout? = nil,
                pageMode: PageMode? = nil, outputIntent: OutputIntent? = nil) {
        self.pages = pages; self.info = info; self.language = language; self.outline = outline
        self.pageLabels = pageLabels; self.pageLayout = pageLayout; self.pageMode = pageMode
        self.outputIntent = outputIntent
    }

    /// The print boxes of one page. The MediaBox stays the one cairo wrote; these must lie inside it
    /// (trim inside bleed inside media).
    public struct PageBoxes: Sendable, Equatable {
        public var trimBox: PDFRect
        public var bleedBox: PDFRect
        /// nil removes an `/ArtBox` (PDF/X wants a TrimBox or an ArtBox, not both).
        public var artBox: PDFRect?

        public init(trimBox: PDFRect, bleedBox: PDFRect, artBox: PDFRect? = nil) {
            self.trimBox = trimBox; self.bleedBox = bleedBox; self.artBox = artBox
        }

        /// For a page drawn at trim size plus bleed: the BleedBox is the whole sheet and the
        /// TrimBox sits inside it by the bleed on each side (0 on a side without bleed).
        public init(media: PDFRect, bleedLeft: Double, bleedBottom: Double, bleedRight: Double, bleedTop: Double) {
            self.init(trimBox: media.inset(left: bleedLeft, bottom: bleedBottom, right: bleedRight, top: bleedTop),
                      bleedBox: media)
        }
    }

    public struct DocumentInfo: Sendable, Equatable {
        public var title: String?
        public var author: String?
        public var subject: String?
        public var keywords: [String]?
        public var creator: String?
        public var producer: String?
        public var creationDate: PDFDate?
        public var modificationDate: PDFDate?
        /// `/Trapped` (`/True` or `/False`); PDF/X requires the key.
        public var trapped: Bool?
        /// The PDF/X version the file conforms to (`/GTS_PDFXVersion`, `/GTS_PDFXConformance`).
        public var pdfx: PDFX?

        public struct PDFX: Sendable, Equatable {
            public var version: String
            public var conformance: String
            public static let x1a2001 = PDFX(version: "PDF/X-1:2001", conformance: "PDF/X-1a:2001")
        }

        public init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: [String]? = nil,
                    creator: String? = nil, producer: String? = nil, creationDate: PDFDate? = nil,
                    modificationDate: PDFDate? = nil, trapped: Bool? = nil) {
            self.title = title; self.author = author; self.subject = subject; self.keywords = keywords
            self.creator = creator; self.producer = producer; self.creationDate = creationDate
            self.modificationDate = modificationDate; self.trapped = trapped
        }
    }

    public struct OutlineItem: Sendable, Equatable {
        public var title: String
        /// 0-based.
        public var pageIndex: Int
        public var destination: Destination
        public var children: [OutlineItem]
        /// Whether the children show when the document opens.
        public var isOpen: Bool

        public init(title: String, pageIndex: Int, destination: Destination = .fit, children: [OutlineItem] = [], isOpen: Bool = true) {
            self.title = title; self.pageIndex = pageIndex; self.destination = destination
            self.children = children; self.isOpen = isOpen
        }
    }

    public enum Destination: Sendable, Equatable {
        /// The whole page in the window.
        case fit
        /// `[page /XYZ left top zoom]`; nil keeps the viewer's current value.
        case xyz(left: Double?, top: Double?, zoom: Double?)
    }

    public struct PageLabelRange: Sendable, Equatable {
        /// 0-based page index where the range begins; it runs to the next range's start.
        public var startPageIndex: Int
        public var style: PageLabelStyle
        public var prefix: String?
        public var firstNumber: Int

        public init(startPageIndex: Int, style: PageLabelStyle, prefix: String? = nil, firstNumber: Int = 1) {
            self.startPageIndex = startPageIndex; self.style = style; self.prefix = prefix; self.firstNumber = firstNumber
        }
    }

    public enum PageLabelStyle: String, Sendable, Equatable {
        /// The prefix alone (or an empty label).
        case none
        case decimal = "D"
        case romanLower = "r"
        case romanUpper = "R"
        case lettersLower = "a"
        case lettersUpper = "A"
    }

    public enum PageLayout: String, Sendable, Equatable {
        case singlePage = "SinglePage", oneColumn = "OneColumn"
        case twoColumnLeft = "TwoColumnLeft", twoColumnRight = "TwoColumnRight"
        /// Facing pages, odd pages on the left.
        case twoPageLeft = "TwoPageLeft"
        /// Facing pages with page 1 alone on the right, as a printed book opens.
        case twoPageRight = "TwoPageRight"
    }

    public enum PageMode: String, Sendable, Equatable {
        case useNone = "UseNone", useOutlines = "UseOutlines", useThumbs = "UseThumbs", fullScreen = "FullScreen"
    }

    /// The printing condition the colours were prepared for (`/S /GTS_PDFX`), with its ICC profile.
    public struct OutputIntent: Sendable, Equatable {
        /// The ICC profile's file, or its bytes (`profileData`), which take precedence.
        public var profile: URL
        public var profileData: Data?
        public var outputConditionIdentifier: String
        public var outputCondition: String?
        public var registryName: String?
        public var info: String?

        public init(profile: URL, outputConditionIdentifier: String, outputCondition: String? = nil,
                    registryName: String? = "http://www.color.org", info: String? = nil) {
            self.profile = profile; self.outputConditionIdentifier = outputConditionIdentifier
            self.outputCondition = outputCondition; self.registryName = registryName; self.info = info
        }

        public init(profileData: Data, outputConditionIdentifier: String, outputCondition: String? = nil,
                    registryName: String? = "http://www.color.org", info: String? = nil) {
            self.init(profile: URL(fileURLWithPath: "/dev/null"), outputConditionIdentifier: outputConditionIdentifier,
                      outputCondition: outputCondition, registryName: registryName, info: info)
            self.profileData = profileData
        }
    }
}

/// Why finishing refused or failed; the message names the file and the problem.
public struct FinishingError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension FinishingPlan {
    /// Checks what does not need the PDF; page-dependent checks happen against the file.
    func validate(pageCount: Int, mediaBoxes: [PDFRect]) throws {
        if !pages.isEmpty && pages.count != pageCount {
            throw FinishingError("the plan has boxes for \(pages.count) pages but the PDF has \(pageCount)")
        }
        for (i, boxes) in pages.enumerated() {
            let media = mediaBoxes[i]
            for (name, box) in [("TrimBox", boxes.trimBox), ("BleedBox", boxes.bleedBox)] + (boxes.artBox.map { [("ArtBox", $0)] } ?? []) {
                guard box.width > 0, box.height > 0, [box.llx, box.lly, box.urx, box.ury].allSatisfy(\.isFinite) else {
                    throw FinishingError("page \(i + 1): \(name) \(box) is empty")
                }
            }
            guard boxes.bleedBox.isInside(media) else {
                throw FinishingError("page \(i + 1): BleedBox \(boxes.bleedBox) is not inside the MediaBox \(media)")
            }
            guard boxes.trimBox.isInside(boxes.bleedBox) else {
                throw FinishingError("page \(i + 1): TrimBox \(boxes.trimBox) is not inside the BleedBox \(boxes.bleedBox)")
            }
            if let art = boxes.artBox, !art.isInside(boxes.trimBox) {
                throw FinishingError("page \(i + 1): ArtBox \(art) is not inside the TrimBox \(boxes.trimBox)")
            }
        }
        func checkOutline(_ items: [OutlineItem]) throws {
            for item in items {
                guard (0..<pageCount).contains(item.pageIndex) else {
                    throw FinishingError("bookmark \"\(item.title)\" points at page index \(item.pageIndex); the PDF has \(pageCount) pages")
                }
                try checkOutline(item.children)
            }
        }
        try checkOutline(outline)
        if let first = pageLabels.first, first.startPageIndex != 0 {
            throw FinishingError("page labels must start at page index 0, not \(first.startPageIndex)")
        }
        var previous = -1
        for range in pageLabels {
            guard range.startPageIndex > previous, range.startPageIndex < pageCount else {
                throw FinishingError("page label range at index \(range.startPageIndex) is out of order or past the last page (\(pageCount) pages)")
            }
            guard range.firstNumber >= 1 else {
                throw FinishingError("page label range at index \(range.startPageIndex): numbering must start at 1 or more")
            }
            previous = range.startPageIndex
        }
        if let intent = outputIntent, intent.profileData == nil, !FileManager.default.isReadableFile(atPath: intent.profile.path) {
            throw FinishingError("output intent profile \(intent.profile.path) cannot be read")
        }
    }
}
