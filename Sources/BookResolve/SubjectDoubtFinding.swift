import Foundation

/// The warning for an estimate that may have picked the wrong subject: it names the picture (the
/// finding names the page), says where the crop and the text will look, and gives the `focus` to
/// write to confirm that or to choose.
enum SubjectDoubtFinding {
    /// `owner`: where `focus` goes, "the page" or "the cover".
    static func finding(_ subject: PictureSubject, picture: String, owner: String, sourcePage: Int?) -> [Finding] {
        guard subject.source == .estimated, let doubt = subject.doubt else { return [] }
        let centre = focus(subject.centre.x, subject.centre.y)
        let what = owner == "the cover" ? "the cover's picture" : "picture"
        let message: String
        switch doubt {
        case .rival(let x, let y, let otherX, let otherY):
            message = "\(what) \"\(picture)\": unsure where its subject is: two parts stand out about as much, at \(place(x, y)) "
                + "and at \(place(otherX, otherY)), so the crop and the text keep both, centred on \(place(subject.centre.x, subject.centre.y)). "
                + "Set \"focus\" on \(owner) to say which: \(focus(x, y)) for the first, \(focus(otherX, otherY)) for the second, "
                + "or \(centre) to keep the estimate"
        case .spread:
            message = "\(what) \"\(picture)\": unsure where its subject is: most of the picture stands out about as much, so the crop "
                + "and the text centre on \(place(subject.centre.x, subject.centre.y)). Set \"focus\" on \(owner) to the subject's place "
                + "(x from 0 at the left to 1 at the right, y from 0 at the top to 1 at the foot), or \(centre) to keep the estimate"
        }
        return [Finding(.warning, .subjectUnsure, sourcePage: sourcePage, message)]
    }

    private static func place(_ x: Double, _ y: Double) -> String { "x \(number(x)), y \(number(y))" }

    private static func focus(_ x: Double, _ y: Double) -> String { "{\"x\": \(number(x)), \"y\": \(number(y))}" }

    private static func number(_ v: Double) -> String { String(format: "%.2f", min(1, max(0, v))) }
}
