import Foundation

/// What shape each provider can be asked for. Providers only take a few ratios, so the page's
/// shape is mapped to the nearest one they support.
public struct AspectRatio: Sendable, Equatable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// Gemini's (and OpenRouter's `image_config`) supported ratios.
    static let geminiRatios: [(String, Double)] = [
        ("1:1", 1), ("2:3", 2.0 / 3), ("3:2", 1.5), ("3:4", 0.75), ("4:3", 4.0 / 3), ("4:5", 0.8),
        ("5:4", 1.25), ("9:16", 9.0 / 16), ("16:9", 16.0 / 9), ("21:9", 21.0 / 9),
    ]

    var value: Double { width / height }

    /// The nearest ratio on a log scale, so 0.75 and 1.33 are equally far from 1.
    public var gemini: String {
        Self.geminiRatios.min { abs(log($0.1 / value)) < abs(log($1.1 / value)) }!.0
    }

    /// OpenAI's gpt-image sizes: portrait, landscape or square.
    public var openAISize: String {
        if value < 0.9 { return "1024x1536" }
        if value > 1.1 { return "1536x1024" }
        return "1024x1024"
    }

    public var isPortrait: Bool { value < 0.9 }
    public var isLandscape: Bool { value > 1.1 }

    public var description: String { gemini }
}
