import Foundation
import BookConfig
import BookResolve
import BookLayout

/// Preflight of a laid-out book against a print profile, before any PDF exists: every fact is in
/// the page tree (image boxes with their effective resolution, text boxes with their ink bounds,
/// the bleed each full-bleed item reaches).
public enum PageTreePreflight {
    public static func check(_ tree: PageTree, profile: PrintProfile) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        let trim = Rect(x: 0, y: 0, width: tree.trim.width, height: tree.trim.height)
        let insets = profile.safeInsets(pageCount: tree.pages.count)
        for page in tree.pages {
            let safe = safeRect(page: page.number, trim: trim, insets: insets)
            for image in page.images {
                let dpi = image.effectiveDPI
                if dpi + 0.5 < profile.minImageDPI {
                    out.append(PreflightFinding(.warning, .lowResolution, page: page.number, file: image.asset.origin,
                        String(format: "%.0f dpi effective, below the %.0f dpi %@ asks for; use a larger image or a smaller frame",
                               dpi, profile.minImageDPI, profile.name)))
                }
                if let side = stopsAtTrim(image.clip, page: page.number, tree: tree) {
                    out.append(PreflightFinding(.error, .stopsAtTrim, page: page.number, file: image.asset.origin,
                                                "the picture reaches the \(side) trim edge but not into the bleed; it would show a white sliver after cutting"))
                }
            }
            for box in page.textBoxes where !box.lines.isEmpty {
                // Marks and the slug live outside the trim on purpose.
                let ink = box.inkBounds
                guard ink.maxX > trim.x, ink.x < trim.maxX, ink.maxY > trim.y, ink.y < trim.maxY else { continue }
                if !safe.contains(ink, tolerance: 0.5) {
                    let words = box.text.split(whereSeparator: \.isWhitespace).prefix(6).joined(separator: " ")
                    let (edge, distance, wanted) = nearestEdge(ink, safe: safe, trim: trim)
                    out.append(PreflightFinding(.error, .outsideSafeArea, page: page.number,
                        String(format: "text \"%@\" reaches %.2f in from the %@ trim edge; %@ wants %.2f in", words,
                               distance / 72, edge, profile.name, wanted / 72)))
                }
            }
            if page.items.contains(where: { if case .placeholderArt = $0 { return true } else { return false } }) {
                out.append(PreflightFinding(.error, .placeholder, page: page.number,
                                            "a placeholder stands where a picture should be; add the image before printing"))
            }
        }
        out += trimAndPageCount(tree, profile: profile)
        let count = tree.pages.count
        if let min = profile.pages.min, count < min {
            out.append(PreflightFinding(.error, .pageCount, "\(count) pages; \(profile.name) prints at least \(min)"))
        }
        if let max = profile.pages.max, count > max {
            out.append(PreflightFinding(.error, .pageCount, "\(count) pages; \(profile.name) prints at most \(max)"))
        }
        return out
    }

    /// A clip that ends exactly at a trim edge where the profile has bleed: content that should bleed.
    static func stopsAtTrim(_ clip: Rect, page: Int, tree: PageTree) -> String? {
        let g = tree.geometry
        let sides = g.sides(page: page)
        let w = tree.trim.width, h = tree.trim.height
        let near = { (a: Double, b: Double) in abs(a - b) < 0.5 }
        if sides.left > 0, near(clip.x, 0) { return "left" }
        if sides.right > 0, near(clip.maxX, w) { return "right" }
        if g.top > 0, near(clip.y, 0) { return "top" }
        if g.bottom > 0, near(clip.maxY, h) { return "bottom" }
        return nil
    }
}
