import Foundation
import CContentColour

/// Sets black text and thin black rules in DeviceGray before the CMYK conversion, so they print
/// in black ink alone, as printers ask (IngramSpark: 100 % K). Ghostscript keeps DeviceGray as
/// grey in PDF/X-1a, which a press prints with the K plate; the same colour in DeviceRGB would be
/// separated into all four inks, near the ink limit and blurred by any misregistration. Fills of
/// areas keep their colour, so a large dark area stays a rich black within the ink limit.
public enum BlackText {
    public struct Rule: Sendable, Equatable {
        /// A colour counts as black when no RGB component is above this…
        public var maxLevel: Double
        /// …and its components differ by at most this (a warm or cool near-black is still black).
        public var maxSpread: Double
        /// Strokes at most this wide (points) are thin rules; wider ones are areas.
        public var maxLineWidth: Double

        public init(maxLevel: Double = 0.25, maxSpread: Double = 0.1, maxLineWidth: Double = 2) {
            self.maxLevel = maxLevel; self.maxSpread = maxSpread; self.maxLineWidth = maxLineWidth
        }

        public static let standard = Rule()
    }

    /// Writes `input` to `output` with its black text and thin black strokes in DeviceGray 0.
    public static func setInGray(_ input: URL, to output: URL, rule: Rule = .standard) throws {
        var message = [CChar](repeating: 0, count: 1024)
        let rule = content_black_rule(max_level: rule.maxLevel, max_spread: rule.maxSpread, max_line_width: rule.maxLineWidth)
        guard content_black_to_gray(input.path, output.path, rule, &message, message.count) == 0 else {
            throw FinishingError("setting black text of \(input.path) in black ink: \(String(cString: message))")
        }
    }
}
