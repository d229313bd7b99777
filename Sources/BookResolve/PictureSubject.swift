import BookModel

/// Where a picture's subject is and what the picture looks like, so that layout can crop around
/// the subject and put text where the picture is quiet without reading a pixel itself.
public struct PictureSubject: Sendable, Equatable {
    public enum Source: String, Sendable, Codable {
        /// The book says (`focus`).
        case given
        /// Judged from the pixels (`SubjectEstimator`).
        case estimated
    }

    /// The subject's box in the picture.
    public var box: UnitRect
    /// The point a crop keeps nearest its middle.
    public var centre: (x: Double, y: Double)
    public var source: Source
    /// How much of the subject each thumbnail cell holds (summing to 1), for weighing what a
    /// text box covers; `grid` cells across and down.
    public var weights: [Float] { didSet { sums = Self.cornerSums(weights, grid) } }
    public var grid: (width: Int, height: Int) { didSet { sums = Self.cornerSums(weights, grid) } }
    /// The weight above and left of each cell corner, (width + 1) × (height + 1): layout asks for
    /// the weight under many windows and cards per page, each then four lookups, not a pass over the grid.
    private var sums: [Double] = []
    /// The picture's colours, for the contrast of text set over it.
    public var thumbnail: Thumbnail?
    /// Why an estimate may have picked the wrong subject; nil when it is clear, or given.
    public var doubt: Doubt?

    public enum Doubt: Sendable, Equatable {
        /// Two candidates nearly as strong lie far apart: the strongest centred at (x, y), the other at (otherX, otherY).
        case rival(x: Double, y: Double, otherX: Double, otherY: Double)
        /// The weight is spread over most of the picture.
        case spread
    }

    public init(box: UnitRect, centre: (x: Double, y: Double), source: Source, weights: [Float],
                grid: (width: Int, height: Int), thumbnail: Thumbnail?) {
        self.box = box; self.centre = centre; self.source = source; self.weights = weights
        self.grid = grid; self.thumbnail = thumbnail
        self.sums = Self.cornerSums(weights, grid)
    }

    /// A subject the book placed: the share of the picture around `focus` given by
    /// `givenExtent` stands for it when text is placed.
    public static func given(_ focus: PictureFocus, thumbnail: Thumbnail?) -> PictureSubject {
        let box = UnitRect.around(x: focus.x, y: focus.y, width: givenExtent, height: givenExtent)
        let (gw, gh) = thumbnail.map { ($0.width, $0.height) } ?? (16, 16)
        return PictureSubject(box: box, centre: (focus.x, focus.y), source: .given,
                              weights: uniformWeights(in: box, width: gw, height: gh), grid: (gw, gh), thumbnail: thumbnail)
    }

    /// The share of each side a given focus stands for.
    public static let givenExtent = 0.3

    /// The share of the subject inside `rect` (picture terms), by its weights: each cell's weight
    /// counts in proportion to the part of the cell inside `rect`.
    public func weight(in rect: UnitRect) -> Double {
        let x0 = max(0, min(1, rect.x)), x1 = max(0, min(1, rect.x + rect.width))
        let y0 = max(0, min(1, rect.y)), y1 = max(0, min(1, rect.y + rect.height))
        guard x1 > x0, y1 > y0, !sums.isEmpty else { return 0 }
        return below(x1, y1) - below(x0, y1) - below(x1, y0) + below(x0, y0)
    }

    /// The weight in [0, x] × [0, y]. The weight is even within a cell, so between the corners'
    /// sums it grows bilinearly and this is exact.
    private func below(_ x: Double, _ y: Double) -> Double {
        let gx = x * Double(grid.width), gy = y * Double(grid.height)
        let i = min(Int(gx), grid.width - 1), j = min(Int(gy), grid.height - 1)
        let fx = gx - Double(i), fy = gy - Double(j)
        let row = grid.width + 1
        let s00 = sums[j * row + i], s10 = sums[j * row + i + 1]
        let s01 = sums[(j + 1) * row + i], s11 = sums[(j + 1) * row + i + 1]
        return s00 + fx * (s10 - s00) + fy * (s01 - s00) + fx * fy * (s11 - s10 - s01 + s00)
    }

    static func cornerSums(_ weights: [Float], _ grid: (width: Int, height: Int)) -> [Double] {
        guard grid.width > 0, grid.height > 0, weights.count == grid.width * grid.height else { return [] }
        let row = grid.width + 1
        var sums = [Double](repeating: 0, count: row * (grid.height + 1))
        for cy in 0..<grid.height {
            var line = 0.0
            for cx in 0..<grid.width {
                line += Double(weights[cy * grid.width + cx])
                sums[(cy + 1) * row + cx + 1] = sums[cy * row + cx + 1] + line
            }
        }
        return sums
    }

    /// The share of the subject's box inside `rect`.
    public func boxShare(in rect: UnitRect) -> Double {
        box.area > 0 ? box.overlap(rect) / box.area : 0
    }

    static func uniformWeights(in box: UnitRect, width: Int, height: Int) -> [Float] {
        var weights = [Float](repeating: 0, count: width * height)
        let cw = 1 / Double(width), ch = 1 / Double(height)
        for cy in 0..<height {
            for cx in 0..<width {
                let cell = UnitRect(x: Double(cx) * cw, y: Double(cy) * ch, width: cw, height: ch)
                weights[cy * width + cx] = Float(cell.overlap(box))
            }
        }
        let sum = weights.reduce(0, +)
        return sum > 0 ? weights.map { $0 / sum } : weights
    }

    public static func == (a: PictureSubject, b: PictureSubject) -> Bool {
        a.box == b.box && a.centre == b.centre && a.source == b.source && a.weights == b.weights
            && a.grid == b.grid && a.thumbnail == b.thumbnail && a.doubt == b.doubt
    }
}
