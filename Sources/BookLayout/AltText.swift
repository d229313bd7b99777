import Foundation

/// The words a reader that cannot see a picture gets instead (a tagged PDF's `/Alt`): the first of
/// the picture's caption, its scene description and the page's text that says anything.
enum AltText {
    static func first(_ candidates: String?...) -> String? {
        for case let text? in candidates {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        return nil
    }
}
