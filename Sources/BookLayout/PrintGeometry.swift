import BookConfig
import BookResolve

/// Where the trimmed page sits on the PDF page when a printer wants bleed and marks: the page
/// tree stays in trim coordinates (origin at the trim's top-left), and full-bleed items simply
/// reach past the trim into the bleed.
public struct PrintGeometry: Sendable, Equatable {
    /// Bleed in points on the binding side and the outside edge; left/right follow the page's side.
    public var top: Double, bottom: Double, inner: Double, outer: Double
    /// Room for crop marks and the slug, beyond the bleed on every side.
    public var marks: Double

    public static let none = PrintGeometry(top: 0, bottom: 0, inner: 0, outer: 0, marks: 0)

    public init(top: Double, bottom: Double, inner: Double, outer: Double, marks: Double) {
        self.top = top; self.bottom = bottom; self.inner = inner; self.outer = outer; self.marks = marks
    }

    public init(_ profile: PrintProfile?) {
        guard let p = profile else { self = .none; return }
        self.init(top: p.bleed.top.points, bottom: p.bleed.bottom.points, inner: p.bleed.inner.points,
                  outer: p.bleed.outer.points, marks: p.marks.margin.points)
    }

    /// Pages bound on the right (a book read right to left): an odd page is a left-hand page.
    public var bindsOnRight = false

    /// Bleed on the left and right edges of a page: the outside edge of a left-hand page is its left.
    public func sides(page number: Int) -> (left: Double, right: Double) {
        (number % 2 == 0) != bindsOnRight ? (outer, inner) : (inner, outer)
    }

    /// The bleed box in trim coordinates.
    public func bleedRect(page number: Int, trim: TrimSize) -> Rect {
        let s = sides(page: number)
        return Rect(x: -s.left, y: -top, width: trim.width + s.left + s.right, height: trim.height + top + bottom)
    }

    /// The PDF page (MediaBox) size: the same for every page so a printer's imposition lines up.
    public func mediaSize(trim: TrimSize) -> (width: Double, height: Double) {
        (trim.width + inner + outer + 2 * marks, trim.height + top + bottom + 2 * marks)
    }

    /// Where the trim's top-left corner lands on the PDF page (top-left origin, as cairo draws).
    public func trimOrigin(page number: Int) -> (x: Double, y: Double) {
        (marks + sides(page: number).left, marks + top)
    }

    /// TrimBox and BleedBox as PDF rectangles [llx, lly, urx, ury] (bottom-left origin).
    public func boxes(page number: Int, trim: TrimSize) -> (trim: [Double], bleed: [Double]) {
        let media = mediaSize(trim: trim)
        let o = trimOrigin(page: number)
        let s = sides(page: number)
        let llx = o.x, lly = media.height - o.y - trim.height
        return ([llx, lly, llx + trim.width, lly + trim.height],
                [llx - s.left, lly - bottom, llx + trim.width + s.right, lly + trim.height + top])
    }
}
