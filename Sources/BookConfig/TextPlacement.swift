/// Where a template may put its text over or beside a picture, in a theme's words. Layout tries
/// each allowed position and keeps the one that hides the least of the picture's subject.
public struct TextPlacementSettings: Codable, Sendable, Equatable {
    /// The positions the text may take, in the order preferred when several hide nothing.
    public var positions: [String]?
    /// One position the text always takes, whatever the picture.
    public var pin: String?
    /// What keeps text over a picture legible: "card" (a paper panel under dark text), "scrim"
    /// (a veil under the text, dark under paper-coloured text, pale under dark text), or "none"
    /// (the art alone, where it is quiet and light or dark enough).
    public var backing: String?
    /// The least contrast ratio (WCAG) of text against the picture it is set over; the backing
    /// is made more opaque until it is reached.
    public var minContrast: Double?

    public init(positions: [String]? = nil, pin: String? = nil, backing: String? = nil, minContrast: Double? = nil) {
        self.positions = positions; self.pin = pin; self.backing = backing; self.minContrast = minContrast
    }

    public static let backings = ["card", "scrim", "none"]
    public static let defaultMinContrast = 4.5

    /// The positions to try, for a template that allows `allowed`: the pin alone, else the
    /// theme's list (those the template knows), else all the template allows.
    public func candidates(allowed: [TextPosition]) -> [TextPosition] {
        if let pin, let position = TextPosition(rawValue: pin), allowed.contains(position) { return [position] }
        let listed = (positions ?? []).compactMap(TextPosition.init(rawValue:)).filter(allowed.contains)
        return listed.isEmpty ? allowed : listed
    }
}

/// A place for text on a page or over a picture.
public enum TextPosition: String, Sendable, CaseIterable {
    case top, bottom, left, right, middle
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    /// The illustration page's band: across the foot or head, or down a side.
    public static let bands: [TextPosition] = [.bottom, .top, .left, .right]
    /// A card over a full picture: across the head or foot, in the middle, or in a corner.
    public static let overlays: [TextPosition] = [.top, .bottom, .topLeft, .topRight, .bottomLeft, .bottomRight, .middle]
}

/// The spread template's settings.
public struct SpreadTemplateSettings: Codable, Sendable, Equatable {
    public var placement: TextPlacementSettings?
    public init(placement: TextPlacementSettings? = nil) { self.placement = placement }
}
