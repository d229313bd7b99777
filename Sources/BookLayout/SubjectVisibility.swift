import BookResolve

/// How much of a picture's subject a reader sees on the page: its weight inside the part of the
/// picture within the trim, less what lies under text set over the picture.
enum SubjectVisibility {
    /// `frame`: where the whole picture is drawn; `visible`: the part of the page it shows
    /// through; `covers`: what is set over it. All in page coordinates. Covers that overlap count
    /// once.
    static func shares(_ subject: PictureSubject, frame: Rect, visible: Rect, covers: [Rect]) -> (kept: Double, covered: Double) {
        guard frame.width > 0, frame.height > 0 else { return (0, 0) }
        let window = SubjectCrop.unit(visible, in: frame)
        let seen = subject.weight(in: window)
        let hidden = union(covers.map { SubjectCrop.unit($0, in: frame) }, within: window, subject)
        let covered = min(seen, max(0, hidden))
        return (seen - covered, covered)
    }

    /// The subject's weight in the union of `parts` within `window`, by inclusion and exclusion:
    /// the intersection of rectangles is a rectangle, and a page sets few of them over a picture.
    private static func union(_ parts: [UnitRect], within window: UnitRect, _ subject: PictureSubject) -> Double {
        let clipped = parts.compactMap { intersection($0, window) }
        func total(from index: Int, _ region: UnitRect?, _ sign: Double) -> Double {
            var sum = 0.0
            for i in index..<clipped.count {
                let part: UnitRect?
                if let region { part = intersection(region, clipped[i]) } else { part = clipped[i] }
                guard let r = part else { continue }
                sum += sign * subject.weight(in: r) + total(from: i + 1, r, -sign)
            }
            return sum
        }
        return total(from: 0, nil, 1)
    }

    private static func intersection(_ a: UnitRect, _ b: UnitRect) -> UnitRect? {
        let x0 = max(a.x, b.x), y0 = max(a.y, b.y), x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return UnitRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
