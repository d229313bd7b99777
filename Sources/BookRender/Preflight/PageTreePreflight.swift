import Foundation
import BookConfig
import BookResolve
import BookLayout

/// Preflight of a laid-out book against a print profile, before any PDF exists: every fact is in
/// the page tree (image boxes with their effective resolution, text boxes with their glyphs' ink,
/// the bleed each full-bleed item reaches, the characters layout could not set).
public enum PageTreePreflight {
    /// Every check of a book's interior: each page's (`pages`) and the page count.
    /// `binding`: how the printed book is bound, which sets the page counts the printer takes.
    public static func check(_ tree: PageTree, profile: PrintProfile, binding: CoverBinding = .paperback) -> [PreflightFinding] {
        var out = pages(tree, profile: profile)
        out += trimAndPageCount(tree, profile: profile)
        out += InteriorPageCount.findings(tree.pages.count, profile: profile, binding: binding)
        return out
    }

    /// The checks each page answers for itself, for any page tree: a book's pages or a cover
    /// sheet's. Pictures (resolution, bleed), text ink within the safety distance, placeholders,
    /// characters that cannot print.
    public static func pages(_ tree: PageTree, profile: PrintProfile) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        for page in tree.pages {
            out += pictures(on: page, tree: tree, profile: profile)
            out += textOutsideSafeArea(on: page, trim: tree.trim, pageCount: tree.pages.count, profile: profile)
            if page.items.contains(where: { if case .placeholderArt = $0 { return true } else { return false } }) {
                out.append(PreflightFinding(.error, .placeholder, page: page.number,
                                            "a placeholder stands where a picture should be; add the image before printing"))
            }
        }
        out += missingGlyphs(tree, profile: profile)
        return out
    }

    /// Each picture's resolution as it prints, against the profile's two thresholds, and pictures
    /// that stop at a trim edge where there is bleed.
    public static func pictures(on page: PageNode, tree: PageTree, profile: PrintProfile) -> [PreflightFinding] {
        var out: [PreflightFinding] = []
        for image in page.images {
            let size = "a \(image.asset.info.orientedWidth)×\(image.asset.info.orientedHeight) picture"
            if let finding = PictureResolution.finding(dpi: image.effectiveDPI, profile: profile, page: page.number,
                                                       file: image.asset.origin, picture: size) {
                out.append(finding)
            }
            if let side = stopsAtTrim(image.clip, page: page.number, tree: tree) {
                out.append(PreflightFinding(.error, .stopsAtTrim, page: page.number, file: image.asset.origin,
                                            "the picture reaches the \(side) trim edge but not into the bleed; it would show a white sliver after cutting"))
            }
        }
        return out
    }

    /// Text whose glyphs' ink comes closer to the trim than the safety distance, one finding per
    /// text box, naming the line that reaches furthest out. Text wholly outside the trim is a
    /// mark or the slug, which belong there.
    static func textOutsideSafeArea(on page: PageNode, trim size: TrimSize, pageCount: Int, profile: PrintProfile) -> [PreflightFinding] {
        let trim = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let safe = safeRect(page: page.number, trim: trim, insets: profile.safeInsets(pageCount: pageCount), bindsOnRight: page.bindsOnRight)
        var out: [PreflightFinding] = []
        for box in page.textBoxes {
            let lines = box.inkLines.filter { $0.ink.maxX > trim.x && $0.ink.x < trim.maxX && $0.ink.maxY > trim.y && $0.ink.y < trim.maxY }
            guard let worst = lines.map({ (text: $0.text, edge: nearestEdge($0.ink, safe: safe, trim: trim)) })
                    .max(by: { $0.edge.wanted - $0.edge.distance < $1.edge.wanted - $1.edge.distance }),
                  worst.edge.distance < worst.edge.wanted - SafeArea.tolerance else { continue }
            let words = worst.text.split(whereSeparator: \.isWhitespace).prefix(6).joined(separator: " ")
            out.append(PreflightFinding(.error, .outsideSafeArea, page: page.number,
                                        SafeArea.message(text: words, edge: SafeArea.Edge(side: worst.edge.edge, distance: worst.edge.distance),
                                                         wanted: worst.edge.wanted, profile: profile)))
        }
        return out
    }

    /// Layout's missing-glyph findings, one per page: errors for a printer's profile, where a box
    /// or a stray symbol would be printed in every copy; warnings otherwise.
    public static func missingGlyphs(_ tree: PageTree, profile: PrintProfile) -> [PreflightFinding] {
        tree.findings.filter { $0.kind == .missingGlyph }.flatMap { finding in
            finding.physicalPages.map { page in
                PreflightFinding(profile.interior ? .error : .warning, .missingGlyph, page: page, finding.message)
            }
        }
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

/// The safety-distance rule as both preflights word and measure it.
enum SafeArea {
    /// Half a point: ink measured from the PDF and from the layout agree to well within it.
    static let tolerance = 0.5

    struct Edge { var side: String; var distance: Double }

    static func message(text: String, edge: Edge, wanted: Double, profile: PrintProfile) -> String {
        String(format: "text \"%@\" prints %.2f in from the %@ trim edge (its glyphs' ink; negative: in the bleed); %@ wants %.2f in",
               text, edge.distance / 72, edge.side, profile.name, wanted / 72)
    }
}
