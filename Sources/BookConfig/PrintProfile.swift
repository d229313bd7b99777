import Foundation
import BookModel

/// What one printer (or a proof, or a screen) wants of a PDF. Printers disagree, so this is data:
/// `templates/profiles/<name>.json`, chosen with `--profile`.
public struct PrintProfile: Codable, Sendable, Equatable {
    public var name: String
    public var description: String
    /// Bleed beyond the trim on each side; inner is the binding edge (KDP has none there).
    public var bleed: SideLengths
    /// Everything printed (text, folios, captions) stays at least this far inside the trim; on
    /// the binding side the gutter table applies where there is one (`safeInsets`).
    public var safety: Length
    /// Outside margins (top, bottom, outer) at least this, whatever the theme says.
    public var minOutsideMargin: Length?
    /// Gutter (inner margin) by interior page count, smallest bracket first.
    public var gutter: [GutterBracket]?
    public var pages: PageCountRule
    /// The trims the printer takes; nil: any.
    public var trims: TrimRule?
    /// The PDF is a print interior: page 1 is a title page, the cover is `bookrender cover`'s.
    public var interior: Bool
    public var marks: Marks
    /// "rgb" or "cmyk".
    public var colour: String
    /// "PDF/X-1a" when the printer wants it.
    public var pdfx: String?
    /// Total area coverage limit in percent (CMYK only).
    public var maxInk: Double?
    /// The quality (50…100) pictures converted to CMYK are stored at as JPEGs (CMYK only; default
    /// `defaultJPEGQuality`).
    public var jpegQuality: Int?
    /// false: the printer takes no transparency (groups, soft masks, alpha), so pages are drawn
    /// without and what is left is flattened. Absent: allowed.
    public var transparency: Bool?
    public var bookmarks: Bool
    public var pageLabels: Bool
    public var facingPages: Bool
    /// A picture printing below this many pixels per inch is an error (0: none is refused).
    public var minImageDPI: Double
    /// A picture printing below this many pixels per inch gets a warning: the printer's own number.
    public var recommendedImageDPI: Double
    public var maxFileSizeMB: Double?
    /// Cover spine: width per interior page by paper, plus a constant.
    public var spine: SpineRule?
    /// A case-bound hardcover's cover (`cover --binding hardcover`): its wrap and spine, where the
    /// printer makes one.
    public var casewrap: CasewrapRule?

    public struct SideLengths: Codable, Sendable, Equatable {
        public var top: Length, bottom: Length, inner: Length, outer: Length
        public init(top: Length, bottom: Length, inner: Length, outer: Length) {
            self.top = top; self.bottom = bottom; self.inner = inner; self.outer = outer
        }
        public static func all(_ l: Length) -> SideLengths { SideLengths(top: l, bottom: l, inner: l, outer: l) }
        public static let zero = SideLengths(top: Length(points: 0), bottom: Length(points: 0), inner: Length(points: 0), outer: Length(points: 0))
    }

    public struct GutterBracket: Codable, Sendable, Equatable {
        public var maxPages: Int
        public var margin: Length
    }

    public struct PageCountRule: Codable, Sendable, Equatable {
        public var min: Int?
        public var max: Int?
        /// Pad with blank pages to a multiple of this (2: even).
        public var multiple: Int
        /// Trims for which the printer wants another multiple (4 for some formats).
        public var byTrim: [TrimMultiple]?
    }

    public struct TrimMultiple: Codable, Sendable, Equatable {
        public var trims: [TrimName]
        public var multiple: Int
    }

    public struct Marks: Codable, Sendable, Equatable {
        public var crop: Bool
        public var registration: Bool
        /// A line outside the trim with the title, page and date.
        public var slug: Bool
        /// Room around the bleed for the marks.
        public var margin: Length
    }

    public struct SpineRule: Codable, Sendable, Equatable {
        /// Inches per interior page, by paper name ("white", "cream", "color").
        public var perPage: [String: Double]
        public var baseInches: Double
        /// Spine text only from this many interior pages on.
        public var textMinPages: Int?
        /// Spine text only on a spine at least this wide.
        public var textMinInches: Double?
        /// How far the binder may place a fold from where the file puts it, each way; spine text
        /// keeps this far from each fold, and the spine's colour runs this far past it.
        public var foldVarianceInches: Double?

        public init(perPage: [String: Double], baseInches: Double, textMinPages: Int? = nil, textMinInches: Double? = nil,
                    foldVarianceInches: Double? = nil) {
            self.perPage = perPage; self.baseInches = baseInches; self.textMinPages = textMinPages
            self.textMinInches = textMinInches; self.foldVarianceInches = foldVarianceInches
        }

        /// The printers' common figure, 1/16 in, when the profile names none.
        public var foldVariance: Double { foldVarianceInches ?? 0.0625 }

        /// Whether the printer lets a spine of `inches` for `pages` interior pages carry text.
        public func carriesText(pages: Int, inches: Double) -> Bool {
            pages >= (textMinPages ?? 0) && inches >= (textMinInches ?? 0) && inches > 2 * foldVariance
        }
    }

    public var isCMYK: Bool { colour == "cmyk" }
    /// High enough that the second generation of JPEG loss is not seen in print.
    public static let defaultJPEGQuality = 92
    public var allowsTransparency: Bool { transparency ?? true }
    public var hasBleed: Bool { [bleed.top, bleed.bottom, bleed.inner, bleed.outer].contains { $0.points > 0 } }

    /// The gutter the printer needs for `pages` interior pages (nil: no rule, or outside the table).
    public func gutterMargin(pages: Int) -> Length? {
        gutter?.first { pages <= $0.maxPages }?.margin
    }

    /// Spine width in inches for `pages` interior pages on `paper`.
    public func spineWidth(pages: Int, paper: String) throws -> Double {
        guard let spine else { throw ConfigError("profile \(name) has no spine rule; use a print profile such as kdp or lulu") }
        guard let perPage = spine.perPage[paper] else {
            throw ConfigError("profile \(name) has no paper \"\(paper)\"; use one of \(spine.perPage.keys.sorted().joined(separator: ", "))")
        }
        return Double(pages) * perPage + spine.baseInches
    }

    public static func available(in directory: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    public static func load(named name: String, from directory: URL) throws -> PrintProfile {
        guard !name.isEmpty, name.utf8.allSatisfy(isNameByte) else {
            throw ConfigError("profile name \"\(name)\" may only hold letters, digits, '_' and '-'")
        }
        let url = directory.appendingPathComponent(name + ".json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigError("no print profile \"\(name)\" (available: \(available(in: directory).joined(separator: ", ")))")
        }
        let profile: PrintProfile
        do {
            profile = try JSONDecoder().decode(PrintProfile.self, from: data)
        } catch let error as DecodingError {
            throw ConfigError("\(url.path): \(ConfigError.describe(error))")
        }
        let violations = ProfileRanges.violations(profile)
        guard violations.isEmpty else {
            throw ConfigError(issues: violations.map { ConfigIssue(file: url.path, jsonPath: $0.jsonPath, message: $0.message) })
        }
        return profile
    }
}
