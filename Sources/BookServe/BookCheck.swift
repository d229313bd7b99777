import Foundation
import BookRenderKit

/// A submitted book is opened once before it is queued, so a book that cannot render is refused
/// with its problems (400) instead of becoming a failed job, and the page limit is held.
enum BookCheck {
    static func check(_ book: URL, options: ServeJobOptions, config: ServeConfiguration) throws(APIError) {
        let settings = RenderSettings(theme: options.theme, profile: options.profile, strict: false, workers: 1,
                                      limits: config.limits)
        let document: BookDocument
        do { document = try BookDocument.open(book, settings: settings) } catch {
            let details = error.diagnostics.prefix(20).map(\.description)
            let code = error.kind == .invalidOptions ? "invalidOption" : error.kind.rawValue
            throw APIError(400, code, ([error.message] + details).joined(separator: "\n"))
        }
        guard document.book.pages.count <= config.maxPages else {
            throw APIError(413, "tooManyPages", "the book has \(document.book.pages.count) pages; the service takes at most \(config.maxPages) (its --max-pages)")
        }
    }
}
