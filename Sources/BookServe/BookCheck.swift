import Foundation
import BookConfig
import BookRenderKit
import BookResolve

/// A submitted book is opened once before it is queued, so a book that cannot render is refused
/// with its problems (400) instead of becoming a failed job, and the service's limits are held:
/// pages, the export's text limits, and each picture's pixels as its header gives them (no
/// picture is decoded here; the export decodes them in its own process). A book.json is small
/// once its pictures are files and is opened here; an app's file is checked by `AppFileCheck`.
enum BookCheck {
    static func check(_ received: BookIntake.Received, job: JobFolder, options: ServeJobOptions, config: ServeConfiguration,
                      catalog: ServeCatalog) throws(APIError) {
        let book = received.book
        guard !received.isAppFile else {
            try AppFileCheck.check(book, job: job, config: config)
            return
        }
        let settings = RenderSettings(theme: options.theme, profile: options.profile, strict: false, workers: 1,
                                      limits: config.limits)
        let document: BookDocument
        do { document = try BookDocument.open(book, settings: settings) } catch {
            let details = error.diagnostics.prefix(20).map(\.description)
            let code = error.kind == .invalidOptions ? "invalidOption" : error.kind.rawValue
            throw APIError(400, code, ClientText.forClient(([error.message] + details).joined(separator: "\n"), job: job))
        }
        if options.theme == nil, let theme = document.book.theme {
            try catalog.checkTheme(theme, place: "the book's $.theme")
        }
        guard document.book.pages.count <= config.maxPages else {
            throw APIError(413, "tooManyPages", "the book has \(document.book.pages.count) pages; the service takes at most \(config.maxPages) (its --max-pages)")
        }
        let texts = TextCheck.issues(document.book, limits: config.limits)
        if !texts.isEmpty {
            let lines = texts.prefix(20).map { ClientText.forClient($0.description, job: job) }
            throw APIError(413, "textTooLong", lines.joined(separator: "\n"))
        }
        try checkPictures(document, job: job, maxPixels: config.limits.maxImagePixels)
    }

    private static func checkPictures(_ document: BookDocument, job: JobFolder, maxPixels: Int) throws(APIError) {
        let book = document.book
        var refs: [(ImageRef, String)] = []
        for (i, page) in book.pages.enumerated() {
            if let image = page.picture?.image { refs.append((image, "$.pages[\(i)].image")) }
        }
        if let image = book.characters?.main?.image { refs.append((image, "$.characters.main.image")) }
        if let image = book.cover?.photo { refs.append((image, "$.cover.photo")) }
        if let image = book.matter?.authorPhoto { refs.append((image, "$.matter.authorPhoto")) }
        if let image = book.matter?.publisherLogo { refs.append((image, "$.matter.publisherLogo")) }
        for (ref, path) in refs {
            let info: ImageInfo?, origin: String
            switch ref {
            case .inline(let data):
                info = try? ImageProbe.probe(data)
                origin = "the inline picture"
            case .path(let relative):
                info = PictureHeader.info(of: document.folder.appendingPathComponent(relative), within: document.folder)
                origin = relative
            }
            // A picture that cannot be read is the export's to report, with the rest of its checks.
            guard let info else { continue }
            do { try ImageCheck.dimensions(info, maxPixels: maxPixels) } catch {
                throw APIError(413, "imageTooLarge", ClientText.forClient("\(path): \(origin): \(error.message)", job: job))
            }
        }
    }
}
