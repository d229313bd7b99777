import Foundation
import BookConfig
import BookLayout

extension PageTreePreflight {
    /// The trim against the printer's list, and the page count against the multiple it binds in
    /// (layout pads to it, so this catches a tree made some other way).
    static func trimAndPageCount(_ tree: PageTree, profile: PrintProfile) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        if let problem = profile.trimProblem(tree.trim.width, tree.trim.height) {
            out.append(PreflightFinding(.error, .trimSize, problem))
        }
        let multiple = profile.pageMultiple(trim: tree.trim.width, tree.trim.height)
        if multiple > 1, tree.pages.count % multiple != 0 {
            out.append(PreflightFinding(.error, .pageCount,
                "\(tree.pages.count) pages; \(profile.name) binds this trim in multiples of \(multiple) pages"))
        }
        return out
    }

    /// The trim less the printer's distances, the binding side on the left of an odd page (its
    /// right in a book bound on the right).
    static func safeRect(page number: Int, trim: Rect, insets: (top: Double, bottom: Double, inner: Double, outer: Double),
                         bindsOnRight: Bool = false) -> Rect {
        let bindingOnLeft = (number % 2 == 1) != bindsOnRight
        let left = bindingOnLeft ? insets.inner : insets.outer
        let right = bindingOnLeft ? insets.outer : insets.inner
        return Rect(x: trim.x + left, y: trim.y + insets.top,
                    width: trim.width - left - right, height: trim.height - insets.top - insets.bottom)
    }

    /// The edge `ink` crosses most, how far the ink is from it, and how far the printer wants it.
    static func nearestEdge(_ ink: Rect, safe: Rect, trim: Rect) -> (edge: String, distance: Double, wanted: Double) {
        let edges: [(String, Double, Double)] = [
            ("left", ink.x - trim.x, safe.x - trim.x),
            ("top", ink.y - trim.y, safe.y - trim.y),
            ("right", trim.maxX - ink.maxX, trim.maxX - safe.maxX),
            ("bottom", trim.maxY - ink.maxY, trim.maxY - safe.maxY),
        ]
        let worst = edges.max { ($0.2 - $0.1) < ($1.2 - $1.1) }!
        return worst
    }
}
