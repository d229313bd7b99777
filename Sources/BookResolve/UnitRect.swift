/// A rectangle in a picture's own terms: 0…1 across its width and down its height.
public struct UnitRect: Sendable, Equatable, Codable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public static let whole = UnitRect(x: 0, y: 0, width: 1, height: 1)

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var area: Double { max(0, width) * max(0, height) }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// The area this rectangle shares with `other`.
    public func overlap(_ other: UnitRect) -> Double {
        max(0, min(maxX, other.maxX) - max(x, other.x)) * max(0, min(maxY, other.maxY) - max(y, other.y))
    }

    /// A `width` × `height` rectangle centred on (cx, cy), moved inside 0…1.
    public static func around(x cx: Double, y cy: Double, width: Double, height: Double) -> UnitRect {
        let w = min(1, width), h = min(1, height)
        return UnitRect(x: min(max(0, cx - w / 2), 1 - w), y: min(max(0, cy - h / 2), 1 - h), width: w, height: h)
    }

    public var description: String {
        func f(_ v: Double) -> String { String(format: "%.3f", v) }
        return "(\(f(x)),\(f(y)) \(f(width))×\(f(height)))"
    }
}
