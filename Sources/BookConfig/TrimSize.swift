import Foundation
import BookModel

/// The finished page size, in points.
public struct TrimSize: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static func inches(_ w: Double, _ h: Double) -> TrimSize { TrimSize(width: w * 72, height: h * 72) }

    /// Named sizes: common picture-book trims, ISO sizes and the app formats (by aspect ratio). Any
    /// other "WxH" in inches is taken too, so every trim a printer's profile lists is a trim.
    public static let presets: [String: TrimSize] = [
        "8.25x11": .inches(8.25, 11), "8.5x11": .inches(8.5, 11), "8.5x8.5": .inches(8.5, 8.5),
        "8.25x8.25": .inches(8.25, 8.25), "8x10": .inches(8, 10), "7.5x10": .inches(7.5, 10),
        "6x9": .inches(6, 9), "5.5x8.5": .inches(5.5, 8.5), "7x10": .inches(7, 10), "10x8": .inches(10, 8),
        "11x8.5": .inches(11, 8.5),
        "a4": TrimSize(width: 595.2756, height: 841.8898), "a5": TrimSize(width: 419.5276, height: 595.2756),
        "letter": .inches(8.5, 11),
        // App formats by aspect ratio (width:height).
        "3:4": .inches(8.25, 11), "1:1": .inches(8.5, 8.5), "4:5": .inches(8, 10),
        "9:16": .inches(6.1875, 11), "16:9": .inches(11, 6.1875),
    ]

    public static let `default` = presets["3:4"]!

    /// The trim a book asks for, or the theme's page aspect when it asks for none.
    public static func resolve(_ spec: TrimSpec?, pageAspect: String) throws -> TrimSize {
        switch spec {
        case .none:
            guard let t = presets[pageAspect] else {
                throw ConfigError("the theme's sizing.pageAspect \"\(pageAspect)\" is not one of \(aspectNames)")
            }
            return t
        case .preset(let name):
            let key = name.lowercased().replacingOccurrences(of: "in", with: "").replacingOccurrences(of: " ", with: "")
            if let t = presets[key] { return t }
            // Width x height in inches, as the printers' lists (and the profiles) write their trims.
            if let t = PrintProfile.TrimName(inches: key) { return try inRange(t.width, t.height, as: name) }
            throw ConfigError("$.format.trim: \"\(name)\" is not a known trim size; use one of \(presetNames), width x height in inches (\"5x8\", \"7.44x9.69\") or {\"width\": \"8in\", \"height\": \"10in\"}")
        case .size(let w, let h):
            return try inRange(w.points, h.points, as: "\(w.inches) × \(h.inches) in")
        }
    }

    private static func inRange(_ width: Double, _ height: Double, as given: String) throws -> TrimSize {
        guard width >= 72, height >= 72, width <= 72 * 60, height <= 72 * 60 else {
            throw ConfigError("$.format.trim: \(given) is outside 1–60 in")
        }
        return TrimSize(width: width, height: height)
    }

    static var presetNames: String { presets.keys.filter { !$0.contains(":") }.sorted().joined(separator: ", ") }
    static var aspectNames: String { presets.keys.filter { $0.contains(":") }.sorted().joined(separator: ", ") }
}
