import Foundation
import BookConfig
import BookModel

/// The themes as `bookrender themes` lists them: every file of `templates/` with its name, what
/// it is for, and the type and colours it sets a book in.
public struct ThemeListing: Sendable, Codable {
    public struct Theme: Sendable, Codable, Equatable {
        public var name: String
        public var description: String
        /// The kind of book it is the default for, when it is one's.
        public var defaultFor: String?
        /// The kind of book it is made for ("storybook", "memoir"), when its file says.
        public var kind: String?
        public var titleFamily: String
        public var bodyFamily: String
        public var bodySize: Double
        /// The paper (`background`), ink and accent colours, "#RRGGBB".
        public var paper: String
        public var ink: String
        public var accent: String
        /// How its cover is laid out (`full-bleed`, `image-top`).
        public var coverStyle: String
        public var file: String
    }

    public var folder: String
    public var themes: [Theme]
    /// The sheets `themes --preview` wrote (see `ThemePreview`); nil when none were asked for.
    public var sheets: [ThemePreview.Sheet]?
    /// As every command's report has them; a theme that cannot be read stops the listing instead.
    public var findings: [Diagnostic] = []

    public static func read(_ settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> ThemeListing {
        let folder = try BookRenderError.wrap { try settings.resources().templates }
        var themes: [Theme] = []
        for name in BookConfig.Theme.available(in: folder) {
            let theme: BookConfig.Theme, tokens: DesignTokens
            do {
                theme = try BookConfig.Theme.load(named: name, from: folder)
                tokens = try theme.tokens(overriddenBy: nil)
            } catch {
                throw BookRenderError(.invalidBook, "\(folder.appendingPathComponent(name + ".json").path): \(error)")
            }
            let defaultFor = [BookKind.storybook, .memoir].first { BookConfig.Theme.defaultName(for: $0) == name }
            themes.append(Theme(name: name, description: theme.description, defaultFor: defaultFor?.rawValue,
                                kind: (theme.kind ?? defaultFor)?.rawValue,
                                titleFamily: tokens.typography.title.family, bodyFamily: tokens.typography.body.family,
                                bodySize: tokens.typography.body.size, paper: tokens.palette.background.hex,
                                ink: tokens.palette.ink.hex, accent: tokens.palette.accent.hex,
                                coverStyle: tokens.templates.cover.style,
                                file: folder.appendingPathComponent(name + ".json").path))
        }
        return ThemeListing(folder: folder.path, themes: themes)
    }
}
