/// The paper a print interior is printed on, as the printers sell it (white or cream), suggested
/// from the theme's page colour: in print that colour is the paper's, not ink.
public enum PaperStock {
    /// "cream" for a warm page colour (red well above blue, as in an ivory or parchment tint),
    /// "white" otherwise.
    public static func suggested(for pageColour: Color) -> String {
        pageColour.red - pageColour.blue > warmth ? "cream" : "white"
    }

    /// How much redder than blue a page colour is before white paper would no longer pass for it:
    /// about ten levels of 255 (#FFFDF8 is white; #F6F1E8 is cream).
    static let warmth = 0.04
}
