import BookModel
import BookResolve

/// Where a picture lands in its area so its subject stays in view: filling the area, the picture
/// is slid along the side it overflows until the subject's centre is as near the middle as the
/// picture's edges allow. An estimated subject larger than the window is slid on to where the
/// window holds the most of it; a given focus is kept in the middle, as the book asked.
enum SubjectCrop {
    struct Placement {
        /// The whole picture's rectangle on the page (beyond the area where it is cropped).
        var frame: Rect
        /// The part of the picture inside the area.
        var shown: UnitRect
    }

    static func place(width w: Double, height h: Double, in area: Rect, subject: PictureSubject?, fit: PictureFit) -> Placement {
        if fit == .contain {
            let frame = ImageFit.contain(width: w, height: h, in: area)
            return Placement(frame: frame, shown: .whole)
        }
        let scale = max(area.width / w, area.height / h)
        let fw = w * scale, fh = h * scale
        let shownW = min(1, area.width / fw), shownH = min(1, area.height / fh)
        let centre: (x: Double, y: Double) = subject?.centre ?? (0.5, 0.5)
        var left = min(max(0, centre.x - shownW / 2), 1 - shownW)
        var top = min(max(0, centre.y - shownH / 2), 1 - shownH)
        if let subject, subject.source == .estimated {
            left = bestOffset(from: left, room: 1 - shownW) { UnitRect(x: $0, y: top, width: shownW, height: shownH) }
            top = bestOffset(from: top, room: 1 - shownH) { UnitRect(x: left, y: $0, width: shownW, height: shownH) }
            func score(_ offset: Double, _ window: (Double) -> UnitRect) -> Double {
                let w = window(offset)
                return ArtScore.share(of: subject, in: w) - cutPenalty * cutThrough(subject, by: w)
            }
            func bestOffset(from start: Double, room: Double, _ window: (Double) -> UnitRect) -> Double {
                guard room > 0.001 else { return start }
                // A subject larger than the window: slide to where the most of its weight is,
                // staying nearest the centred window among equals.
                var best = start, bestScore = score(start, window)
                for step in 0...searchSteps {
                    let offset = room * Double(step) / Double(searchSteps)
                    let s = score(offset, window)
                    if s > bestScore + 1e-9 || (abs(s - bestScore) <= 1e-9 && abs(offset - start) < abs(best - start)) {
                        best = offset; bestScore = s
                    }
                }
                return best
            }
        }
        return Placement(frame: Rect(x: area.x - left * fw, y: area.y - top * fh, width: fw, height: fh),
                         shown: UnitRect(x: left, y: top, width: shownW, height: shownH))
    }

    /// Offsets tried along the side a picture overflows.
    static let searchSteps = 40
    /// How much worse cutting through the subject is than leaving part of it out: a crop through
    /// empty sky that loses the moon reads better than one through a character's legs.
    static let cutPenalty = 1.0

    /// The subject's weight along the window's edges that lie inside the picture: a strip one
    /// thumbnail cell deep on either side of each.
    static func cutThrough(_ subject: PictureSubject, by w: UnitRect) -> Double {
        let dx = 1 / Double(subject.grid.width), dy = 1 / Double(subject.grid.height)
        var strips: [UnitRect] = []
        if w.x > 0.0005 { strips.append(UnitRect(x: w.x - dx, y: w.y, width: 2 * dx, height: w.height)) }
        if w.maxX < 0.9995 { strips.append(UnitRect(x: w.maxX - dx, y: w.y, width: 2 * dx, height: w.height)) }
        if w.y > 0.0005 { strips.append(UnitRect(x: w.x, y: w.y - dy, width: w.width, height: 2 * dy)) }
        if w.maxY < 0.9995 { strips.append(UnitRect(x: w.x, y: w.maxY - dy, width: w.width, height: 2 * dy)) }
        return strips.reduce(0) { $0 + subject.weight(in: $1) }
    }

    /// A page rectangle in the terms of the picture drawn at `frame`.
    static func unit(_ r: Rect, in frame: Rect) -> UnitRect {
        UnitRect(x: (r.x - frame.x) / frame.width, y: (r.y - frame.y) / frame.height,
                 width: r.width / frame.width, height: r.height / frame.height)
    }
}
