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
    /// How justified and start-aligned paragraphs are broken into lines: "optimal" (the whole
    /// paragraph at once, Knuth–Plass) or "first-fit" (each line as full as it goes); optimal
    /// when absent.
    public var lineBreaking: String?
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
}

public struct IllustrationTemplateSettings: Codable, Sendable, Equatable {
    /// Smallest share of the page height the text band takes when the page has text.
    public var bandMinFraction: Double
    /// Largest share before the text is set smaller.
    public var bandMaxFraction: Double
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
}

public struct CoverTemplateSettings: Codable, Sendable, Equatable {
    /// "image-top" (picture above a title panel) or "full-bleed" (picture under the whole cover).
    public var style: String
}
