import BookResolve

/// How much of a picture's subject lies inside a part of the picture: the mean of the share of
/// its box and the share of its weight, so both a tight subject and a scattered one count.
enum ArtScore {
    /// Scores closer than this are equal, and the theme's order decides.
    static let tie = 0.01
    /// How much more of the subject a band position later in the theme's order must keep to be
    /// taken: a slightly fuller crop is not worth a narrow column of text.
    static let preference = 0.05

    static func share(of subject: PictureSubject, in part: UnitRect) -> Double {
        (subject.boxShare(in: part) + subject.weight(in: part)) / 2
    }

    /// What a card over the picture hides: chiefly the subject's weight, since a box around
    /// two figures also holds the sky between them, where a card does no harm; the box only
    /// parts cards that hide equal weight.
    static func hidden(of subject: PictureSubject, under part: UnitRect) -> Double {
        subject.weight(in: part) + 0.1 * subject.boxShare(in: part)
    }
}

extension Rect {
    /// The part this rectangle shares with `r` (empty, at this one's origin, when none).
    func intersection(_ r: Rect) -> Rect {
        let x0 = max(x, r.x), y0 = max(y, r.y), x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
