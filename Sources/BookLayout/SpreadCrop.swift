import BookModel
import BookResolve

/// Where a spread's picture lands so its subject is clear of the trim and of the fold: a character
/// at least `trimClearance` inside the trim and none of it within `foldClearance` of the fold,
/// where the binding swallows it. The picture is slid along the side it overflows; when sliding
/// cannot clear the subject it is enlarged a little, so the crop loses sky or ground at the edges
/// rather than a character in the gutter.
enum SpreadCrop {
    struct Outcome {
        var placement: SubjectCrop.Placement
        /// How much the picture was enlarged beyond filling the spread (1: not at all).
        var zoom: Double
        /// Whether the subject's box lies clear of the trim's and the fold's margins.
        var clear: Bool
    }

    /// Inside the trim, in points (0.25 in).
    static let trimClearance = 18.0
    /// Either side of the fold, in points (0.5 in).
    static let foldClearance = 36.0
    /// The most a picture is enlarged to clear its subject.
    static let maxZoom = 1.35
    static let zoomStep = 0.05
    /// Offsets tried along each side a picture overflows.
    static let searchSteps = 40
    /// What enlarging by a whole 100 % would cost, in shares of the subject put at risk: a picture
    /// is enlarged only when that clears a real part of its subject.
    static let zoomCost = 0.25
    /// The share of the subject's box that may lie in a margin and still count as clear: a box
    /// edge grazing the line is the thumbnail's coarseness, not a character in the gutter.
    static let graze = 0.02

    /// `area`: the spread with its bleed; `trim`: the spread's two trimmed pages side by side,
    /// folded at `fold` (all in the spread's coordinates).
    static func place(width w: Double, height h: Double, in area: Rect, trim: Rect, fold: Double,
                      subject: PictureSubject?, fit: PictureFit) -> Outcome {
        guard let subject else {
            return Outcome(placement: SubjectCrop.place(width: w, height: h, in: area, subject: nil, fit: fit), zoom: 1, clear: true)
        }
        let safe = trim.inset(by: trimClearance)
        let gutter = Rect(x: fold - foldClearance, y: trim.y, width: 2 * foldClearance, height: trim.height)
        if fit == .contain {
            let placed = SubjectCrop.place(width: w, height: h, in: area, subject: subject, fit: fit)
            return Outcome(placement: placed, zoom: 1, clear: clear(subject, frame: placed.frame, safe: safe, gutter: gutter))
        }
        let base = max(area.width / w, area.height / h)
        // The crop that centres the subject, as on any page: among equally safe crops, the nearest to it wins.
        let centred = SubjectCrop.place(width: w, height: h, in: area, subject: subject, fit: fit)
        var best: (score: Double, distance: Double, placement: SubjectCrop.Placement, zoom: Double)
            = (risk(subject, frame: centred.frame, safe: safe, gutter: gutter), 0, centred, 1)
        let zooms = Int(((maxZoom - 1) / zoomStep).rounded())
        for z in 0...zooms {
            let zoom = 1 + Double(z) * zoomStep
            let fw = w * base * zoom, fh = h * base * zoom
            let shownW = min(1, area.width / fw), shownH = min(1, area.height / fh)
            let roomX = 1 - shownW, roomY = 1 - shownH
            let stepsX = roomX > 0.0005 ? searchSteps : 0, stepsY = roomY > 0.0005 ? searchSteps : 0
            for j in 0...stepsY {
                let top = stepsY == 0 ? roomY / 2 : roomY * Double(j) / Double(stepsY)
                for i in 0...stepsX {
                    let left = stepsX == 0 ? roomX / 2 : roomX * Double(i) / Double(stepsX)
                    let frame = Rect(x: area.x - left * fw, y: area.y - top * fh, width: fw, height: fh)
                    let score = risk(subject, frame: frame, safe: safe, gutter: gutter) + zoomCost * (zoom - 1)
                    let distance = abs(left + shownW / 2 - centred.shown.midX) + abs(top + shownH / 2 - centred.shown.midY)
                    if score < best.score - 1e-9 || (abs(score - best.score) <= 1e-9 && distance < best.distance - 1e-12) {
                        best = (score, distance, SubjectCrop.Placement(frame: frame, shown: UnitRect(x: left, y: top, width: shownW, height: shownH)), zoom)
                    }
                }
            }
        }
        return Outcome(placement: best.placement, zoom: best.zoom,
                       clear: clear(subject, frame: best.placement.frame, safe: safe, gutter: gutter))
    }

    /// The share of the subject lost or at risk with the picture drawn at `frame`: outside the
    /// trim or within its margin (outside `safe`), or in the fold's, each the mean of the shares of its box and
    /// of its weight (so a character's whole outline counts, not only where its weight lies).
    static func risk(_ subject: PictureSubject, frame: Rect, safe: Rect, gutter: Rect) -> Double {
        let inner = SubjectCrop.unit(safe, in: frame), fold = SubjectCrop.unit(gutter.intersection(safe), in: frame)
        func share(_ r: UnitRect) -> Double { (subject.boxShare(in: r) + subject.weight(in: r)) / 2 }
        return (1 - share(inner)) + share(fold)
    }

    /// Whether the subject's box (drawn at `frame`) stays inside `safe` and out of `gutter`, but for a graze.
    static func clear(_ subject: PictureSubject, frame: Rect, safe: Rect, gutter: Rect) -> Bool {
        let inner = SubjectCrop.unit(safe, in: frame), fold = SubjectCrop.unit(gutter, in: frame)
        return subject.boxShare(in: inner) >= 1 - graze && subject.boxShare(in: fold) <= graze
    }
}

/// What a spread's crop depends on: the picture, where its subject is, and the spread's geometry.
struct SpreadCropKey: Hashable {
    var picture: String
    var box: [Double]
    var geometry: [Double]
    var fit: String
}
