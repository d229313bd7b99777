import BookResolve

/// How a page shows a picture and where its text went, for reports and for checking that
/// neither the crop nor the text hides the subject.
public struct ArtPlacement: Sendable, Equatable {
    /// The picture as the book names it.
    public var origin: String
    /// "cover" (cropped to fill its area) or "contain" (shown whole).
    public var fit: String
    /// The part of the picture shown (across both pages of a spread).
    public var shown: UnitRect
    /// The subject's box in the picture, and whether the book gave it or it was estimated.
    public var subject: UnitRect
    public var subjectSource: PictureSubject.Source
    /// The share of the subject's box inside the crop.
    public var subjectKept: Double
    /// Where the page's text went ("bottom", "top-left", …), nil for a page with none over or beside the picture.
    public var textPosition: String?
    /// The share of the subject's box under this page's text.
    public var subjectCovered: Double
    /// The least contrast of that text against what lies under it, when it lies over the picture.
    public var textContrast: Double?
    /// What the text stands on: "none" (the art), "scrim", "band", "page" (under a spot picture).
    public var textBacking: String?
    /// The height of a band or veiled block, which its facing page's matches.
    public var textBlockHeight: Double?

    public init(origin: String, fit: String, shown: UnitRect, subject: UnitRect, subjectSource: PictureSubject.Source,
                subjectKept: Double, textPosition: String? = nil, subjectCovered: Double = 0, textContrast: Double? = nil) {
        self.origin = origin; self.fit = fit; self.shown = shown; self.subject = subject; self.subjectSource = subjectSource
        self.subjectKept = subjectKept; self.textPosition = textPosition; self.subjectCovered = subjectCovered
        self.textContrast = textContrast
    }

    init(asset: ImageAsset, subject: PictureSubject, placement: SubjectCrop.Placement, fit: String) {
        self.init(origin: asset.origin, fit: fit, shown: placement.shown, subject: subject.box, subjectSource: subject.source,
                  subjectKept: subject.boxShare(in: placement.shown))
    }
}
