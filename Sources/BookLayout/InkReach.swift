import BookConfig
import BookResolve

/// How far the side margins fall short of keeping text ink on the printer's side of its safe line.
/// A margin at exactly the printer's figure keeps the text box there, but a justified line's
/// glyphs may ink past the box (an `f`'s hook at the end of a line, a `j`'s tail at its start).
enum InkReach {
    /// Points the inner and outer margins must grow by for every line's ink to keep `insets` from
    /// the trim. Only boxes the margins hold count: a box set outside them (a mark, a folio moved
    /// into the margin) would not move with them.
    static func shortfall(_ tree: PageTree, margins: ResolvedMargins,
                          insets: (top: Double, bottom: Double, inner: Double, outer: Double)) -> (inner: Double, outer: Double) {
        let width = tree.trim.width, height = tree.trim.height
        var short = (inner: 0.0, outer: 0.0)
        for page in tree.pages {
            // The binding side is on the left of a right-hand page.
            let right = page.side == .right
            let (leftMargin, rightMargin) = right ? (margins.inner, margins.outer) : (margins.outer, margins.inner)
            let (leftSafe, rightSafe) = right ? (insets.inner, insets.outer) : (insets.outer, insets.inner)
            for box in page.textBoxes where box.frame.x >= leftMargin - Self.slack && box.frame.maxX <= width - rightMargin + Self.slack {
                for line in box.inkLines where line.ink.maxX > 0 && line.ink.x < width && line.ink.maxY > 0 && line.ink.y < height {
                    let left = leftSafe - line.ink.x, rightReach = line.ink.maxX - (width - rightSafe)
                    if right {
                        short.inner = max(short.inner, left); short.outer = max(short.outer, rightReach)
                    } else {
                        short.outer = max(short.outer, left); short.inner = max(short.inner, rightReach)
                    }
                }
            }
        }
        return short
    }

    /// A box's frame computed from the margins may land a rounding error outside them.
    static let slack = 0.01
}
