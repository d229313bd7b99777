import Foundation

/// A length in PDF points. JSON: a number (points) or a string with a unit: "0.5in", "12mm", "1cm", "36pt".
public struct Length: Codable, Sendable, Equatable, Hashable, CustomStringConvertible {
    public var points: Double

    public init(points: Double) { self.points = points }
    public static func inches(_ v: Double) -> Length { Length(points: v * 72) }
    public static func mm(_ v: Double) -> Length { Length(points: v * 72 / 25.4) }

    public var inches: Double { points / 72 }
    public var description: String { "\(points)pt" }

    /// Parses "8.25in", "210mm", "2cm", "36pt", "36".
    public init?(parsing text: String) {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("in", 72), ("mm", 72 / 25.4), ("cm", 720 / 25.4), ("pt", 1)]
        for (suffix, factor) in units where s.hasSuffix(suffix) {
            guard let v = Double(s.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), v.isFinite else { return nil }
            self.points = v * factor
            return
        }
        guard let v = Double(s), v.isFinite else { return nil }
        self.points = v
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let v = try? c.decode(Double.self) {
            self.points = v
        } else {
            guard let s = try? c.decode(String.self) else {
                throw DecodingError.typeMismatch(Length.self, .init(codingPath: c.codingPath,
                    debugDescription: "expected a length: a number of points or a string with a unit (\"0.5in\", \"12mm\")"))
            }
            guard let parsed = Length(parsing: s) else {
                throw DecodingError.dataCorruptedError(in: c,
                    debugDescription: "\"\(s)\" is not a length: write a number with in, mm, cm or pt (\"0.5in\")")
            }
            self = parsed
        }
        if points < 0 {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a length cannot be negative")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(points)
    }
}
