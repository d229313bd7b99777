import Foundation
import BookModel

extension PrintProfile {
    /// The trims a printer takes: its list of sizes and, for some printers, any size within a range.
    public struct TrimRule: Codable, Sendable, Equatable {
        /// Where the list was taken from, so it can be checked again when the printer revises it.
        public var source: String
        public var sizes: [TrimName]
        public var custom: TrimRange?
        /// Another binding's list (a case-bound hardcover), kept for reference: bookrender makes
        /// paperback interiors, so it is not checked.
        public var hardcover: [TrimName]?
    }

    /// Any width and height within these bounds (inclusive).
    public struct TrimRange: Codable, Sendable, Equatable {
        public var minWidth: Length, maxWidth: Length, minHeight: Length, maxHeight: Length

        func contains(width: Double, height: Double, tolerance: Double) -> Bool {
            width >= minWidth.points - tolerance && width <= maxWidth.points + tolerance
                && height >= minHeight.points - tolerance && height <= maxHeight.points + tolerance
        }

        func clamped(width: Double, height: Double) -> TrimName {
            TrimName(width: min(max(width, minWidth.points), maxWidth.points),
                     height: min(max(height, minHeight.points), maxHeight.points))
        }
    }

    /// A trim written "WxH" in inches, width first ("6x9", "11x8.5").
    public struct TrimName: Codable, Sendable, Equatable, CustomStringConvertible {
        /// In points.
        public var width: Double, height: Double

        public init(width: Double, height: Double) { self.width = width; self.height = height }

        public init?(inches text: String) {
            let parts = text.lowercased().split(separator: "x").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite
            else { return nil }
            self.init(width: w * 72, height: h * 72)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            let text = try c.decode(String.self)
            guard let parsed = TrimName(inches: text) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "\"\(text)\" is not a trim: write width x height in inches (\"6x9\")")
            }
            self = parsed
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(description)
        }

        /// "8.5x11": inches, to the printers' hundredths (thousandths where they give them).
        public var description: String { "\(Self.inches(width))x\(Self.inches(height))" }
        /// "8.5 × 11 in", for messages.
        public var spoken: String { "\(Self.inches(width)) × \(Self.inches(height)) in" }

        static func inches(_ points: Double) -> String {
            let v = (points / 72 * 1000).rounded() / 1000
            return v == v.rounded() ? String(Int(v)) : String(v)
        }

        func matches(width w: Double, height h: Double, tolerance: Double) -> Bool {
            abs(width - w) <= tolerance && abs(height - h) <= tolerance
        }

        func distance(width w: Double, height h: Double) -> Double { hypot(width - w, height - h) }
    }

    /// How far a trim may differ from a listed one and still be it: the printers list sizes to
    /// the hundredth of an inch (A4 as 8.27 × 11.69 for 210 × 297 mm).
    public static let trimTolerance = 0.015 * 72

    /// Whether the printer takes a page of this size (points); true when the profile lists no trims.
    public func accepts(trim width: Double, _ height: Double) -> Bool {
        guard let trims else { return true }
        if trims.sizes.contains(where: { $0.matches(width: width, height: height, tolerance: Self.trimTolerance) }) { return true }
        return trims.custom?.contains(width: width, height: height, tolerance: Self.trimTolerance) ?? false
    }

    /// The accepted trim closest to this one: a listed size, or the nearest size in the custom range.
    public func nearestTrim(to width: Double, _ height: Double) -> TrimName? {
        guard let trims else { return nil }
        let candidates = trims.sizes + (trims.custom.map { [$0.clamped(width: width, height: height)] } ?? [])
        return candidates.min { $0.distance(width: width, height: height) < $1.distance(width: width, height: height) }
    }

    /// "13 × 13 in is not a trim kdp prints; the nearest it takes is 8.5 × 11.69 in (…)", or nil
    /// when the trim is accepted. The advice is for a book (`format.trim`, in the spelling the
    /// list gives) or, with `pdf`, for a finished file.
    public func trimProblem(_ width: Double, _ height: Double, pdf: Bool = false) -> String? {
        guard !accepts(trim: width, height), let trims else { return nil }
        let given = TrimName(width: width, height: height).spoken
        var message = "\(given) is not a trim \(name) prints"
        if let nearest = nearestTrim(to: width, height) { message += "; the nearest it takes is \(nearest.spoken)" }
        if let c = trims.custom {
            message += " (\(name) takes \(TrimName.inches(c.minWidth.points))–\(TrimName.inches(c.maxWidth.points)) in wide"
                + " × \(TrimName.inches(c.minHeight.points))–\(TrimName.inches(c.maxHeight.points)) in tall)"
        } else {
            message += " (\(name) takes \(trims.sizes.map(\.description).joined(separator: ", ")) in)"
        }
        let nearest = nearestTrim(to: width, height)?.description ?? "6x9"
        if pdf { return message + "; make every page's TrimBox one of these sizes (\(nearest) is the nearest)" }
        return message + "; set format.trim in book.json to one of these, such as \"\(nearest)\""
    }

    /// The page multiple the printer wants for a book of this trim: a trim's own rule, else the profile's.
    public func pageMultiple(trim width: Double, _ height: Double) -> Int {
        pages.byTrim?.first { rule in rule.trims.contains { $0.matches(width: width, height: height, tolerance: Self.trimTolerance) } }?
            .multiple ?? pages.multiple
    }

    /// How far ink must stay from each edge of a page of a book of `pageCount` pages: the safety
    /// distance (at least the minimum outside margin) on the top, bottom and outside edge; on the
    /// binding side the gutter the printer's table asks for, or the safety distance.
    public func safeInsets(pageCount: Int) -> (top: Double, bottom: Double, inner: Double, outer: Double) {
        let outside = max(safety.points, minOutsideMargin?.points ?? 0)
        let inner = max(safety.points, gutterMargin(pages: pageCount)?.points ?? 0)
        return (outside, outside, inner, outside)
    }
}
