import Foundation
import BookModel
import BookConfig

/// A book with its theme applied, its assets located and probed and its trim and margins in points:
/// everything layout needs, and nothing it has to look up again.
public struct ResolvedBook: Sendable {
    public var book: Book
    public var folder: URL
    public var themeName: String
    public var tokens: DesignTokens
    public var trim: TrimSize
    public var margins: ResolvedMargins
    /// The printer's rules when the book is exported for print (`--profile`), nil for plain output.
    public var profile: PrintProfile?
    public var language: String
    /// For a book that names no language.
    public static let defaultLanguage = "en"
    public var cover: ResolvedCover
    public var mainCharacterImage: ImageAsset?
    /// The back cover's pictures (`matter.authorPhoto`, `matter.publisherLogo`), when the book
    /// gives them and they can be read.
    public var authorPhoto: ImageAsset? = nil
    public var publisherLogo: ImageAsset? = nil
    public var pages: [ResolvedPage]
    /// The fonts the book carries with it (`fonts/` beside book.json), each checked to be a file
    /// inside the book's folder.
    public var bookFonts: BookFonts
    public var findings: [Finding]
    /// The ids of the JPEG pictures whose data was decoded whole, without a fault, to make their
    /// thumbnails: the check of the pictures passed through to a PDF need not decode them again.
    public var decodedPictures: Set<String> = []
    /// Where the pictures' analyses are kept between runs (the picture check adds to it).
    public var analysisCache: PictureAnalysisCache? = nil

    /// A print interior's page colour is the paper's, not ink: true for a printer's profile,
    /// unless the book asks for its page colour to be printed.
    public var leavesPageColourToPaper: Bool {
        (profile?.interior ?? false) && book.format?.printBackground != true
    }
}

public struct ResolvedMargins: Sendable, Equatable {
    public var top: Double
    public var bottom: Double
    public var inner: Double
    public var outer: Double

    public init(top: Double, bottom: Double, inner: Double, outer: Double) {
        self.top = top; self.bottom = bottom; self.inner = inner; self.outer = outer
    }

    /// Widened where the printer needs more room: every margin at least its safety distance, the
    /// outside ones at least its minimum outside margin. The gutter by page count is layout's,
    /// which knows the page count.
    /// The margins a full-bleed jacket is lettered within: the same on every side, as a front
    /// cover has no gutter (it is not sewn or glued along its spine edge as a page is) and its
    /// title is centred on it; and nearer the trim than a page's text, as a jacket's lettering is:
    /// the page's outer margin up to half an inch, or the printer's safety where that asks for more.
    public func jacket(respecting profile: PrintProfile?) -> ResolvedMargins {
        let live = max(min(outer, Self.jacketMargin), profile?.safety.points ?? 0)
        return ResolvedMargins(top: live, bottom: live, inner: live, outer: live)
    }
    public static let jacketMargin = 36.0

    public func respecting(_ profile: PrintProfile) -> ResolvedMargins {
        let safe = profile.safety.points
        let outside = max(safe, profile.minOutsideMargin?.points ?? 0)
        return ResolvedMargins(top: max(top, outside), bottom: max(bottom, outside), inner: max(inner, safe), outer: max(outer, outside))
    }
}

public struct ResolvedCover: Sendable {
    public var title: String
    public var subtitle: String?
    public var author: String?
    public var accent: Color
    public var image: ImageSlot
    /// Where the cover picture's subject is, when it has a picture.
    public var subject: PictureSubject? = nil
}

public struct ResolvedPage: Sendable {
    /// Index in the book's `pages`.
    public var index: Int
    public var page: Page
    public var image: ImageSlot
    /// Where the picture's subject is, when the page has a picture whose placement has a choice
    /// (`PicturePage.placementHasChoice`).
    public var subject: PictureSubject? = nil
}

/// What stands where a picture goes.
public enum ImageSlot: Sendable {
    case none
    case asset(ImageAsset)
    /// The picture is missing or not yet generated: layout draws a themed placeholder from the scene.
    case placeholder(reason: String)

    public var asset: ImageAsset? {
        if case .asset(let a) = self { return a }
        return nil
    }
    public var isPlaceholder: Bool {
        if case .placeholder = self { return true }
        return false
    }
}

/// Something a user should hear about: a warning (output still written) or an error.
public struct Finding: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case warning, error }
    public enum Kind: String, Sendable {
        case placeholder, missingImage, missingGlyph, noHyphenation, blankPageInserted, subjectUnsure, other
    }
    public var severity: Severity
    public var kind: Kind
    /// Index in the book's `pages` when the finding is about one.
    public var sourcePage: Int?
    /// Physical page numbers (1-based) when layout knows them.
    public var physicalPages: [Int]
    public var message: String

    public init(_ severity: Severity, _ kind: Kind, sourcePage: Int? = nil, physicalPages: [Int] = [], _ message: String) {
        self.severity = severity; self.kind = kind; self.sourcePage = sourcePage
        self.physicalPages = physicalPages; self.message = message
    }

    public var description: String { "\(severity.rawValue): \(located)" }

    /// Where and what, without the severity: for a message whose reader already prints "error:".
    public var located: String {
        var parts: [String] = []
        if !physicalPages.isEmpty {
            parts.append(physicalPages.count == 1 ? "page \(physicalPages[0])" :
                "pages \(physicalPages.first!)–\(physicalPages.last!)")
        }
        // A message that starts with a path inside the entry names the place already.
        if let s = sourcePage, !message.hasPrefix("$.pages[\(s)]") { parts.append("$.pages[\(s)]") }
        return (parts + [message]).joined(separator: ": ")
    }
}

extension ResolvedBook {
    /// Whether the book is bound on the right: its pages turn from left to right, page 1 is a
    /// left-hand page and each spread's first page its right-hand one.
    public var bindsOnRight: Bool {
        if let binding = book.format?.binding { return binding == "right" }
        return Self.rightToLeftLanguages.contains(language.split(separator: "-").first.map { $0.lowercased() } ?? "")
    }

    /// Languages written right to left, whose books bind on the right.
    public static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "dv", "ckb", "sd", "ug", "syr"]
}
