import Foundation

/// Picture-book scenes drawn by ImageMagick for the tests of where a subject is found: a small
/// figure (a child in a dark purple coat, yellow scarf and red hat) in a night scene with stars, a
/// bright moon and a tree, and the figure alone on a plain background as the book's reference
/// picture of its main character. The figure's shapes are known, so a test can tell which pixels
/// of a page show it.
public struct SceneFigure: Sendable {
    /// Where its feet rest (pixels of the picture) and how tall it is, hat to boots.
    public var x: Double, foot: Double, height: Double

    public init(x: Double, foot: Double, height: Double) { self.x = x; self.foot = foot; self.height = height }

    public static let coat = (red: 0x4B, green: 0x2E, blue: 0x83)
    public static let scarf = (red: 0xF2, green: 0xC2, blue: 0x30)
    public static let skin = (red: 0xF0, green: 0xC8, blue: 0xA0)
    public static let hat = (red: 0xC8, green: 0x37, blue: 0x2D)
    public static let boots = (red: 0x3B, green: 0x24, blue: 0x16)

    private var u: Double { height / 101 }

    /// The box around it, in pixels of the picture.
    public var box: (x: Double, y: Double, width: Double, height: Double) {
        (x - 20 * u, foot - 101 * u, 40 * u, 101 * u)
    }

    /// ImageMagick drawing primitives (MVG) for it.
    public var mvg: String {
        func p(_ v: Double) -> String { String(format: "%.1f", v) }
        func fill(_ c: (red: Int, green: Int, blue: Int)) -> String { String(format: "fill #%02X%02X%02X", c.red, c.green, c.blue) }
        let y = foot - u
        return [
            fill(Self.boots),
            "ellipse \(p(x - 9 * u)),\(p(y - 3 * u)) \(p(8 * u)),\(p(4 * u)) 0,360",
            "ellipse \(p(x + 9 * u)),\(p(y - 3 * u)) \(p(8 * u)),\(p(4 * u)) 0,360",
            fill(Self.coat),
            "polygon \(p(x - 12 * u)),\(p(y - 70 * u)) \(p(x + 12 * u)),\(p(y - 70 * u)) \(p(x + 20 * u)),\(p(y - 6 * u)) \(p(x - 20 * u)),\(p(y - 6 * u))",
            fill(Self.scarf),
            "rectangle \(p(x - 14 * u)),\(p(y - 74 * u)) \(p(x + 14 * u)),\(p(y - 64 * u))",
            fill(Self.skin),
            "circle \(p(x)),\(p(y - 84 * u)) \(p(x + 12 * u)),\(p(y - 84 * u))",
            fill(Self.hat),
            "polygon \(p(x - 13 * u)),\(p(y - 88 * u)) \(p(x + 13 * u)),\(p(y - 88 * u)) \(p(x)),\(p(y - 100 * u))",
        ].joined(separator: "\n")
    }

    /// The colour the figure shows at a point of the picture (pixels), nil where it is not there;
    /// `inset` pixels from the edges of its shapes count as not there, for reading a rendering
    /// whose edges are blended.
    public func colour(atX px: Double, y py: Double, inset: Double = 0) -> (red: Int, green: Int, blue: Int)? {
        let y = foot - u
        if (px - x) * (px - x) + (py - (y - 84 * u)) * (py - (y - 84 * u)) <= (12 * u - inset) * (12 * u - inset) {
            // The hat is drawn over the top of the head.
            return inHat(px, py, y, inset) ? Self.hat : Self.skin
        }
        if inHat(px, py, y, inset) { return Self.hat }
        if px >= x - 14 * u + inset, px <= x + 14 * u - inset, py >= y - 74 * u + inset, py <= y - 64 * u - inset { return Self.scarf }
        if py >= y - 70 * u + inset, py <= y - 6 * u - inset {
            // The coat widens from 12u at the scarf to 20u at its hem.
            let half = 12 * u + 8 * u * (py - (y - 70 * u)) / (64 * u)
            if abs(px - x) <= half - inset { return Self.coat }
        }
        for side in [-1.0, 1.0] {
            let dx = (px - (x + side * 9 * u)) / max(0.1, 8 * u - inset), dy = (py - (y - 3 * u)) / max(0.1, 4 * u - inset)
            if dx * dx + dy * dy <= 1, py > y - 6 * u + inset { return Self.boots }
        }
        return nil
    }

    private func inHat(_ px: Double, _ py: Double, _ y: Double, _ inset: Double) -> Bool {
        let top = y - 100 * u, base = y - 88 * u
        guard py >= top + inset, py <= base - inset else { return false }
        let half = 13 * u * (py - top) / (base - top)
        return abs(px - x) <= half - inset
    }
}

public enum NightScenes {
    /// A night sky over a dark hill: stars, a bright moon high on the right, a tree on the left,
    /// and the figure; `extra` draws more on top (MVG).
    public static func night(width: Int, height: Int, figure: SceneFigure, moon: (x: Double, y: Double)? = nil,
                             tree: Double? = nil, extra: String = "") throws -> Data {
        let w = Double(width), h = Double(height)
        let moon = moon ?? (0.78 * w, 0.2 * h)
        let tree = tree ?? 0.16 * w
        let r = 0.065 * max(w, h)
        var stars: [String] = []
        var seed: UInt64 = 11
        for _ in 0..<24 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let sx = Double(seed >> 40 & 0xFFFF) / 65535 * w, sy = Double(seed >> 20 & 0xFFFF) / 65535 * h * 0.55
            stars.append(String(format: "circle %.1f,%.1f %.1f,%.1f", sx, sy, sx + 1.6, sy))
        }
        let hill = String(format: "path 'M 0,%.0f Q %.0f,%.0f %.0f,%.0f L %.0f,%.0f L 0,%.0f Z'",
                          0.72 * h, w / 2, 0.63 * h, w, 0.73 * h, w, h, h)
        let draw = [
            "fill #FFFFFF", stars.joined(separator: "\n"),
            "fill #F4EFC8", String(format: "circle %.1f,%.1f %.1f,%.1f", moon.x, moon.y, moon.x + r, moon.y),
            "fill #1D3527", hill,
            "fill #3A2A1E", String(format: "rectangle %.1f,%.1f %.1f,%.1f", tree - 0.014 * w, 0.42 * h, tree + 0.014 * w, 0.75 * h),
            "fill #24452F", String(format: "circle %.1f,%.1f %.1f,%.1f", tree, 0.37 * h, tree, 0.24 * h),
            String(format: "circle %.1f,%.1f %.1f,%.1f", tree - 0.05 * w, 0.43 * h, tree - 0.05 * w, 0.33 * h),
            String(format: "circle %.1f,%.1f %.1f,%.1f", tree + 0.05 * w, 0.43 * h, tree + 0.05 * w, 0.33 * h),
            figure.mvg, extra,
        ].joined(separator: "\n")
        return try TestImages.convert(["-size", "\(width)x\(height)", "gradient:#0B1533-#22345E", "-draw", draw,
                                       "-strip", "+set", "date:create", "+set", "date:modify"])
    }

    /// The figure alone on a cream background, as a character sheet shows it.
    public static func reference(width: Int = 600, height: Int = 800) throws -> Data {
        let figure = SceneFigure(x: Double(width) / 2, foot: Double(height) * 0.92, height: Double(height) * 0.8)
        return try TestImages.convert(["-size", "\(width)x\(height)", "xc:#FAF6EE", "-draw", figure.mvg,
                                       "-strip", "+set", "date:create", "+set", "date:modify"])
    }
}
