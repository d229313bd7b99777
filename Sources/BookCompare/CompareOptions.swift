import Foundation

/// A rectangle in pixel coordinates, origin top left.
public struct PixelRect: Sendable, Equatable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Parses `x,y,w,h` (whole pixels, width and height at least 1).
    public init(parsing text: String) throws(CompareError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            throw CompareError(.invalidArgument, "a region is x,y,width,height in whole pixels, not \"\(text)\"")
        }
        guard x >= 0, y >= 0, w > 0, h > 0 else {
            throw CompareError(.invalidArgument, "region \"\(text)\" must start at x,y >= 0 and have a width and height of at least 1")
        }
        self.init(x: x, y: y, width: w, height: h)
    }

    public var description: String { "\(x),\(y),\(width),\(height)" }

    /// The part inside a width × height image, or nil when none of it is.
    public func clamped(width imageWidth: Int, height imageHeight: Int) -> PixelRect? {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(imageWidth, x + width), y1 = min(imageHeight, y + height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}

/// A region whose pixels are not compared, on every page or on one page (by its file name).
public struct IgnoreRegion: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The page's name (`page-003.png`), or nil for every page.
    public var page: String?
    public var rect: PixelRect

    public init(page: String? = nil, rect: PixelRect) {
        self.page = page
        self.rect = rect
    }

    /// Parses `x,y,w,h` or `NAME:x,y,w,h`.
    public init(parsing text: String) throws(CompareError) {
        if let colon = text.lastIndex(of: ":") {
            let name = String(text[..<colon])
            guard !name.isEmpty else {
                throw CompareError(.invalidArgument, "region \"\(text)\" has an empty page name before the colon")
            }
            self.init(page: name, rect: try PixelRect(parsing: String(text[text.index(after: colon)...])))
        } else {
            self.init(page: nil, rect: try PixelRect(parsing: text))
        }
    }

    public var description: String { page.map { "\($0):\(rect)" } ?? rect.description }
}

/// How two pages are compared. The defaults are pixelmatch's: threshold 0.1, anti-aliased pixels
/// not counted, and no differing pixel allowed.
public struct CompareOptions: Sendable, Equatable, Codable {
    /// pixelmatch's matching threshold, 0…1: the largest YIQ colour distance treated as equal,
    /// as a fraction of the largest possible one. Smaller is stricter.
    public var threshold: Double
    /// A pixel whose every channel (alpha included) differs by at most this much is equal,
    /// before the colour metric is consulted. 0 turns the pre-pass off.
    public var tolerance: Int
    /// How many differing pixels a page may have and still be the same.
    public var maxDiffPixels: Int
    /// The same as a fraction of the pixels compared; with both set, the larger allowance wins.
    public var maxDiffRatio: Double?
    public var ignore: [IgnoreRegion]
    /// Count anti-aliased pixels as differences instead of detecting and excusing them.
    public var includeAA: Bool
    /// Composite translucent pixels over pixelmatch 7's checkerboard instead of white.
    /// Only for checking the port against pixelmatch's own test fixtures.
    public var checkerboard: Bool

    public init(threshold: Double = 0.1, tolerance: Int = 0, maxDiffPixels: Int = 0, maxDiffRatio: Double? = nil,
                ignore: [IgnoreRegion] = [], includeAA: Bool = false, checkerboard: Bool = false) {
        self.threshold = threshold
        self.tolerance = tolerance
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.ignore = ignore
        self.includeAA = includeAA
        self.checkerboard = checkerboard
    }

    /// Refuses values the comparison cannot honour.
    public func validate() throws(CompareError) {
        guard threshold.isFinite, threshold >= 0, threshold <= 1 else {
            throw CompareError(.invalidArgument, "threshold must be between 0 and 1, not \(threshold)")
        }
        guard tolerance >= 0, tolerance <= 255 else {
            throw CompareError(.invalidArgument, "tolerance must be between 0 and 255, not \(tolerance)")
        }
        guard maxDiffPixels >= 0 else {
            throw CompareError(.invalidArgument, "max-diff-pixels must not be negative")
        }
        if let r = maxDiffRatio, !(r.isFinite && r >= 0 && r <= 1) {
            throw CompareError(.invalidArgument, "max-diff-ratio must be between 0 and 1, not \(r)")
        }
    }

    /// The regions that apply to a page: the global ones and those naming it.
    public func ignoreRegions(forPage name: String?) -> [PixelRect] {
        ignore.filter { $0.page == nil || $0.page == name }.map(\.rect)
    }

    /// How many differing pixels a page of `comparedPixels` may have and still be the same.
    public func allowedDifferingPixels(comparedPixels: Int) -> Int {
        let byRatio = maxDiffRatio.map { Int((Double(comparedPixels) * $0).rounded(.down)) } ?? 0
        return max(maxDiffPixels, byRatio)
    }
}
