/// How a run of text is set. Plain values, so themes and templates can build them from design
/// tokens without touching Pango.
public struct TextStyle: Sendable, Equatable, Hashable {
    /// A family of the private font set; unknown names are set in the manifest's default family.
    public var family: String
    /// Point size.
    public var size: Double
    /// 100…900, as in CSS.
    public var weight: Int
    public var italic: Bool
    /// Baseline-to-baseline distance as a multiple of `size` (1.4 → 16.8 pt for 12 pt text).
    /// Zero or less keeps the font's natural line height.
    public var lineHeight: Double
    /// Extra space after every character, in points.
    public var letterSpacing: Double = 0
    /// Indent of each paragraph's first line, in points (negative hangs the first line).
    public var firstLineIndent: Double = 0
    /// Extra space after each paragraph but the last, in points: the blank line between
    /// paragraphs shows as space instead of a bare line break.
    public var paragraphSpacing: Double = 0
    /// False for a text that opens under a heading: its first paragraph starts flush, since an
    /// indent only marks where one paragraph follows another.
    public var indentsFirstParagraph = true

    public init(family: String, size: Double, weight: Int = 400, italic: Bool = false, lineHeight: Double = 1.2,
                letterSpacing: Double = 0, firstLineIndent: Double = 0, paragraphSpacing: Double = 0) {
        self.family = family
        self.size = size
        self.weight = weight
        self.italic = italic
        self.lineHeight = lineHeight
        self.letterSpacing = letterSpacing
        self.firstLineIndent = firstLineIndent
        self.paragraphSpacing = paragraphSpacing
    }
}

/// Alignment relative to the paragraph's direction: `start` is the left edge of a Latin paragraph
/// and the right edge of a Hebrew or Arabic one.
public enum TextAlignment: Sendable, Equatable, Hashable {
    case start, center, end
    /// Both edges, except each paragraph's last line, which is set at the start.
    case justify
}
