import Foundation

/// Where a picture prints, in points: its page (twice as wide for a spread); for the cover and the
/// main character's picture (which stands in for a cover photo), the book's trim.
public struct PicturePlace: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// Below this resolution, filling its place, a picture is refused as too small to print. Far
    /// under what printers ask for (preflight holds a book to its print profile): the floor refuses
    /// what no book can use, a thumbnail or a few pixels, and lets through every size the providers
    /// make for a page (about 1K pixels a side, a spread included) and the local provider's previews.
    public static func minimumPPI(_ resolution: Resolution) -> Double { resolution == .preview ? 30 : 60 }

    /// The fewest pixels across and down: the place's size at `minimumPPI`.
    public func minimumPixels(_ resolution: Resolution) -> (width: Int, height: Int) {
        let ppi = Self.minimumPPI(resolution)
        return (Int((width / 72 * ppi).rounded(.up)), Int((height / 72 * ppi).rounded(.up)))
    }

    /// "8.25 × 11 in".
    var inches: String {
        func f(_ points: Double) -> String {
            let s = String(format: "%.2f", points / 72)
            return s.hasSuffix(".00") ? String(s.dropLast(3)) : s.hasSuffix("0") ? String(s.dropLast()) : s
        }
        return "\(f(width)) × \(f(height)) in"
    }
}

/// The shape a provider is asked for, as the request names it ("3:4", "1024x1536"), and its width
/// over its height.
public struct AskedShape: Sendable, Equatable {
    public var name: String
    public var ratio: Double

    public init(name: String, ratio: Double) { self.name = name; self.ratio = ratio }

    /// A ratio ("3:4") or a size ("1024x1536").
    init(_ name: String) {
        let parts = name.split(whereSeparator: { $0 == ":" || $0 == "x" }).compactMap { Double($0) }
        self.init(name: name, ratio: parts.count == 2 && parts[1] > 0 ? parts[0] / parts[1] : 1)
    }
}
