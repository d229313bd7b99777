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
    public var weights: [Float]
    public var grid: (width: Int, height: Int)
    /// The picture's colours, for the contrast of text set over it.
    public var thumbnail: Thumbnail?

    public init(box: UnitRect, centre: (x: Double, y: Double), source: Source, weights: [Float],
                grid: (width: Int, height: Int), thumbnail: Thumbnail?) {
        self.box = box; self.centre = centre; self.source = source; self.weights = weights
        self.grid = grid; self.thumbnail = thumbnail
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

    /// The share of the subject inside `rect` (picture terms), by its weights.
    public func weight(in rect: UnitRect) -> Double {
        var total = 0.0
        let cw = 1 / Double(grid.width), ch = 1 / Double(grid.height)
        for cy in 0..<grid.height {
            for cx in 0..<grid.width {
                let w = weights[cy * grid.width + cx]
                guard w > 0 else { continue }
                let cell = UnitRect(x: Double(cx) * cw, y: Double(cy) * ch, width: cw, height: ch)
                total += Double(w) * cell.overlap(rect) / cell.area
            }
        }
        return total
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
            && a.grid == b.grid && a.thumbnail == b.thumbnail
    }
}
