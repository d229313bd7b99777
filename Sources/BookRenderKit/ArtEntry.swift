import Foundation
import BookLayout
import BookResolve

/// How a page shows its picture, for reports: the crop, the subject and whether the book gave
/// it or it was estimated, and where the text went. Figures rounded to thousandths of the picture.
public struct ArtEntry: Sendable, Codable, Equatable {
    public var page: Int
    /// The picture as the book names it.
    public var image: String
    /// cover (cropped to fill) or contain (whole).
    public var fit: String
    /// The part of the picture shown, 0…1 of its width and height (across both pages of a spread).
    public var crop: UnitRect
    public var subject: UnitRect
    /// given (the book's `focus`) or estimated (from the pixels).
    public var subjectSource: String
    /// The share of the subject's box inside the crop.
    public var subjectKept: Double
    /// Where the page's text went, when it has text beside or over the picture.
    public var textPosition: String?
    /// The share of the subject's box under that text.
    public var subjectCovered: Double
    /// The least contrast ratio of text set over the picture.
    public var textContrast: Double?
    /// What the text stands on: "none" (the art itself), "scrim" (a soft veil over the art),
    /// "band" (a band beside the picture), "page" (the page under a spot picture).
    public var textBacking: String?

    init(page: Int, _ art: ArtPlacement) {
        func r(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        func r(_ u: UnitRect) -> UnitRect { UnitRect(x: r(u.x), y: r(u.y), width: r(u.width), height: r(u.height)) }
        self.page = page; image = art.origin; fit = art.fit; crop = r(art.shown); subject = r(art.subject)
        subjectSource = art.subjectSource.rawValue; subjectKept = r(art.subjectKept); textPosition = art.textPosition
        subjectCovered = r(art.subjectCovered); textContrast = art.textContrast.map { ($0 * 100).rounded() / 100 }
        textBacking = art.textBacking
    }

    static func entries(_ tree: PageTree) -> [ArtEntry] {
        tree.pages.flatMap { page in page.art.map { ArtEntry(page: page.number, $0) } }
    }
}
