import BookModel

/// The design tokens a theme defines and a book may override, token by token.
public struct DesignTokens: Codable, Sendable, Equatable {
    public var palette: Palette
    public var typography: Typography
    public var sizing: Sizing
    /// Per page-type template parameters; data, so a theme can restyle a template without code.
    public var templates: TemplateSettings
}

public struct Palette: Codable, Sendable, Equatable {
    /// Page paper colour.
    public var background: Color
    /// Bands, placeholders and quiet fills.
    public var wash: Color
    /// Text.
    public var ink: Color
    public var accent: Color
    public var spine: Color
    /// Captions and page numbers.
    public var muted: Color
}

public struct Typography: Codable, Sendable, Equatable {
    public var title: TypeRole
    public var subtitle: TypeRole
    public var body: TypeRole
    public var caption: TypeRole
    public var chapterTitle: TypeRole
    public var pageNumber: TypeRole
    /// The body's characters a line the theme aims for, and how far its size may move to get there;
    /// nil: the body is set as given whatever the page.
    public var measure: MeasureSettings? = nil
    /// How justified and start-aligned paragraphs are broken into lines: "optimal" (the whole
    /// paragraph at once, Knuth–Plass) or "first-fit" (each line as full as it goes); optimal
    /// when absent.
    public var lineBreaking: String?
    /// Whether typewriter quotes (`"`, `'`) in the book's words are set as the language's
    /// quotation marks and apostrophes; true when absent.
    public var smartQuotes: Bool?
}

/// A comfortable line holds 45 to 75 characters: on a wider or narrower page the body size moves
/// within its limits, then the side margins widen, until the body's lines fall inside `min...max`.
public struct MeasureSettings: Codable, Sendable, Equatable {
    /// Fewest characters a full body line should hold.
    public var min: Double
    /// Most characters a full body line should hold.
    public var max: Double
    /// What a fitted line aims for.
    public var ideal: Double
    /// The body size may grow up to this (points) before the margins widen.
    public var maxBodySize: Double
    /// The body size may shrink down to this (points) on a narrow page.
    public var minBodySize: Double
}

/// One typographic role. Weight is a CSS-style number (400 regular, 600 semibold, 700 bold).
public struct TypeRole: Codable, Sendable, Equatable {
    public var family: String
    public var size: Double
    public var weight: Int
    public var italic: Bool
    /// Line height as a multiple of the size.
    public var lineHeight: Double
    /// "start" | "center" | "end" | "justify".
    public var align: String
    public var hyphenate: Bool
    /// First-line indent of each paragraph, in ems.
    public var indent: Double
    /// Space between paragraphs (those a blank line separates), in ems; nil or 0: none.
    public var paragraphSpacing: Double? = nil
    /// The smallest size, in points, a title in this role is set at to avoid a bad break (a word
    /// alone on a line, a word cut in two) before it takes more lines; nil: never smaller than `size`.
    public var minSize: Double? = nil
    /// A narrower face for words too long for this role's face at the size their place asks
    /// (a cover title of a dozen words): a designer sets those in the family's condensed cut
    /// rather than smaller; nil: the role's face is only ever set smaller.
    public var condensed: CondensedFace? = nil

    /// This role in its condensed face, when it has one.
    public var condensedRole: TypeRole? {
        guard let condensed else { return nil }
        var role = self
        role.family = condensed.family
        role.weight = condensed.weight ?? weight
        role.lineHeight = condensed.lineHeight ?? lineHeight
        role.condensed = nil
        return role
    }
}

/// The condensed face of a type role: its family, and the weight and line height it is set at
/// when they differ from the role's.
public struct CondensedFace: Codable, Sendable, Equatable {
    public var family: String
    public var weight: Int?
    public var lineHeight: Double?

    public init(family: String, weight: Int? = nil, lineHeight: Double? = nil) {
        self.family = family; self.weight = weight; self.lineHeight = lineHeight
    }
}

public struct Sizing: Codable, Sendable, Equatable {
    /// Width:height of the page when the book names no trim size.
    public var pageAspect: String
    public var margins: TokenMargins
    public var cornerRadius: Double
    public var shadow: Shadow
}

public struct TokenMargins: Codable, Sendable, Equatable {
    public var top: Length
    public var bottom: Length
    public var inner: Length
    public var outer: Length
}

public struct Shadow: Codable, Sendable, Equatable {
    public var radius: Double
    public var y: Double
    public var opacity: Double
}

public struct TemplateSettings: Codable, Sendable, Equatable {
    public var illustration: IllustrationTemplateSettings
    public var photo: PhotoTemplateSettings
    public var cover: CoverTemplateSettings
    public var text: TextPageTemplateSettings
    /// nil: a chapter opens on a title page of its own, on the right.
    public var chapter: ChapterTemplateSettings? = nil
    public var spread: SpreadTemplateSettings?
    /// nil: the pages a book of the theme's kind has (see `MatterSettings.defaults`).
    public var matter: MatterSettings? = nil
}

/// Which front and back matter pages a theme gives its books; a book's `matter` switches win.
/// The title page is page 1 of every printed interior; the rest as set here.
public struct MatterSettings: Codable, Sendable, Equatable {
    public var halfTitle: Bool? = nil
    /// true: in print and on screen; nil: in print, and on screen when the book gives publishing details.
    public var copyrightPage: Bool? = nil
    /// For books of at least `contentsFrom` chapters.
    public var contents: Bool? = nil
    public var contentsFrom: Int? = nil
    public var theEnd: Bool? = nil
}

/// How a chapter opens. A memoir sinks its title on the first page of its text; a book of
/// separate parts gives each its own title page. `recto` puts every opening on a right-hand page,
/// a blank page before it when needed; `any` opens on whichever page comes next.
public struct ChapterTemplateSettings: Codable, Sendable, Equatable {
    /// "sink" (title and the chapter's first text on one page) or "page" (a title page).
    public var chapterOpening: String
    /// "recto" or "any".
    public var chapterStart: String
    /// How far down the text area the sunk title sits, as a share of its height.
    public var sink: Double? = nil

    public var sinks: Bool { chapterOpening == "sink" }
    public var startsRecto: Bool { chapterStart == "recto" }
    public var sinkFraction: Double { sink ?? 0.28 }

    public static let titlePage = ChapterTemplateSettings(chapterOpening: "page", chapterStart: "recto")
}

public struct IllustrationTemplateSettings: Codable, Sendable, Equatable {
    /// Smallest share of the page height the text band takes when the page has text.
    public var bandMinFraction: Double
    /// Largest share before the text is set smaller.
    public var bandMaxFraction: Double
    /// Where the band may go (`bands` positions).
    public var placement: TextPlacementSettings?
    /// Where the text may stand on the picture itself, over a quiet part of it (`overlays`
    /// positions), in the order preferred; `backing` "scrim" lets a soft veil lift the contrast
    /// where the art alone does not give it, "none" never. Absent: the text goes in a band.
    public var over: TextPlacementSettings? = nil
}

public struct PhotoTemplateSettings: Codable, Sendable, Equatable {
    /// The photo frame's share of the text area's height (the caption takes the rest).
    public var frameFraction: Double
}

/// Flowing text pages can read differently from the short text under a picture (a picture book
/// centres its page text but sets a long story ragged right), so they may override the body role.
public struct TextPageTemplateSettings: Codable, Sendable, Equatable {
    /// Replaces `typography.body.align` on text pages when set.
    public var align: String?
    /// Replaces `typography.body.indent` (ems) on text pages when set.
    public var indent: Double?
    /// Replaces `typography.body.paragraphSpacing` (ems) on text pages when set.
    public var paragraphSpacing: Double? = nil
    /// Where a text that fits on one page stands on it: "top", "center" or "optical" (centred a
    /// little above the middle, where the eye takes the centre to be). nil: top.
    public var vertical: String? = nil
}

public struct CoverTemplateSettings: Codable, Sendable, Equatable {
    /// "image-top" (picture above a title panel) or "full-bleed" (picture under the whole cover).
    public var style: String
    /// Where the full-bleed cover's title card may go (`overlays` positions).
    public var placement: TextPlacementSettings?
}
