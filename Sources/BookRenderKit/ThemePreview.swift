import Foundation
import BookConfig
import BookRender
import BookBase

/// `bookrender themes --preview`: each theme's look on one sheet (`ContactSheet`), the cover and
/// the first pages of the user's own book set in it, or of the sample book of the kind the theme
/// is made for, so themes can be compared side by side before one is chosen.
public enum ThemePreview {
    public struct Sheet: Sendable, Codable, Equatable {
        public var theme: String
        /// The book set in it.
        public var book: String
        public var file: String
        public var pages: Int
    }

    /// Pages on a sheet unless asked otherwise: the cover and a spread or two.
    public static let defaultPages = 6

    /// One sheet per theme of `listing`, `<theme>.png` in `folder`. `book`: the book to show,
    /// nil for the samples beside the templates.
    public static func write(to folder: URL, book: URL?, pages: Int = defaultPages, listing: ThemeListing,
                             settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> [Sheet] {
        guard pages >= 1 else { throw BookRenderError(.invalidOptions, "a preview shows at least 1 page, not \(pages)") }
        try BookRenderError.wrap { try AtomicOutput.makeFolder(folder) }
        let root = URL(fileURLWithPath: listing.folder).deletingLastPathComponent()
        var sheets: [Sheet] = []
        for theme in listing.themes {
            let shown: URL
            if let book { shown = book } else { shown = try sample(for: theme, root: root) }
            let document = try BookDocument.open(shown, settings: settings).with { $0.theme = theme.name }
            let tree = try document.layout()
            let file = folder.appendingPathComponent(theme.name + ".png")
            let count = try BookRenderError.wrap { try ContactSheet().write(tree, pages: pages, to: file) }
            sheets.append(Sheet(theme: theme.name, book: shown.path, file: file.path, pages: count))
        }
        return sheets
    }

    /// The sample book of the kind `theme` is made for (a memoir theme's: the memoir; any other:
    /// the storybook).
    static func sample(for theme: ThemeListing.Theme, root: URL) throws(BookRenderError) -> URL {
        // `kind` is the theme's own or the kind it is the default for; a theme that says neither is
        // judged by its cover.
        let kind = theme.kind ?? (theme.coverStyle == "full-bleed" ? "storybook" : "memoir")
        let url = root.appendingPathComponent("samples/\(kind == "memoir" ? "memoir" : "storybook")/book.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw BookRenderError(.unreadableInput, "no sample book at \(url.path) to show the theme \(theme.name) with; give your own with --book BOOK")
        }
        return url
    }
}
