import Testing
import Foundation
import BookModel
import BookConfig
import BookLayout
import BookRender
import BookTestSupport
import BookRenderKit

/// The gallery of themes in `templates/`: each says what kind of book it is for, sets its type in
/// faces of the private font set, looks like itself, and holds every page type at every trim the
/// printers take, within their safe zones.
@Suite struct ThemeGalleryTests {
    static let folder = Repository.resources.templates
    static let themes = Theme.available(in: folder)
    static let printers = ["kdp", "lulu", "ingramspark"]

    @Test func thereAreAtLeastThreeThemesForEachKindOfBook() throws {
        let kinds = try Self.themes.map { try Theme.load(named: $0, from: Self.folder).kind }
        #expect(!kinds.contains(nil), "every theme says which kind of book it is for: \(zip(Self.themes, kinds).map { "\($0)=\(String(describing: $1))" })")
        #expect(kinds.filter { $0 == .storybook }.count >= 3)
        #expect(kinds.filter { $0 == .memoir }.count >= 3)
    }

    /// No two themes share their type and colours, and each face they name is one of the font
    /// set's (not the default family standing in for a name it does not know).
    @Test func eachThemeHasItsOwnTypeAndPaletteFromTheFontSet() throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.root.appendingPathComponent("fonts/fonts.json"))) as? [String: Any]
        let families = Set((manifest?["files"] as? [[String: Any]] ?? []).compactMap { $0["family"] as? String })
        var looks: [String: String] = [:]
        for name in Self.themes {
            let tokens = try Theme.load(named: name, from: Self.folder).tokens(overriddenBy: nil)
            let t = tokens.typography
            for role in [t.title, t.subtitle, t.body, t.caption, t.chapterTitle, t.pageNumber] {
                #expect(families.contains(role.family), "\(name): \(role.family) is not in fonts/fonts.json")
            }
            let look = [t.title.family, t.body.family, tokens.palette.background.hex, tokens.palette.ink.hex, tokens.palette.accent.hex]
                .joined(separator: " ")
            #expect(looks[look] == nil, "\(name) looks like \(looks[look] ?? "")")
            looks[look] = name
        }
    }

    /// A book with every page type: a cover photo, an illustration with words, flowing text, a
    /// photo with a caption, a chapter, a spread and a QR code.
    static func everyPageType(kind: BookKind, theme: String, trim: PrintProfile.TrimName, folder: URL) -> Book {
        let prose = "The lamp was lit at dusk and put out at dawn, and in between the keeper wrote down the ships. "
        return Book(kind: kind, title: "The Lighthouse Keeper's Daughter", subtitle: "A year on the point", author: "Mara Lind",
                    language: "en-US", created: "2024-05-01", theme: theme,
                    format: BookFormat(trim: .size(width: Length(points: trim.width), height: Length(points: trim.height))),
                    cover: Cover(photo: .path("tall.jpg"), blurb: "A year of storms and ships, told by the girl who kept the lamp."),
                    pages: [
                        Page(IllustrationPage(image: .path("tall.jpg"), text: "Every evening she climbed the hundred steps.")),
                        Page(TextPage(text: String(repeating: prose, count: 6) + "\n\n" + String(repeating: prose, count: 4))),
                        Page(PhotoPage(image: .path("wide.jpg"), caption: "The point at low tide, the year the storm came.")),
                        Page(ChapterPage(title: "The Winter of the Great Storm", text: String(repeating: prose, count: 8))),
                        Page(SpreadPage(image: .path("spread.jpg"), text: "And then the sea was calm again.")),
                        Page(QRPage(url: "https://example.com/listen/lighthouse", caption: "Listen to this story")),
                    ])
    }

    static func pictures() throws -> URL {
        let dir = try temporaryDirectory("theme-gallery")
        try TestImages.gradientJPEG(width: 240, height: 320).write(to: dir.appendingPathComponent("tall.jpg"))
        try TestImages.gradientJPEG(width: 320, height: 240).write(to: dir.appendingPathComponent("wide.jpg"))
        try TestImages.gradientJPEG(width: 640, height: 240).write(to: dir.appendingPathComponent("spread.jpg"))
        return dir
    }

    @Test(arguments: themes)
    func everyPageTypeHoldsAtEveryTrimThePrintersTake(_ theme: String) throws {
        let kind = try Theme.load(named: theme, from: Self.folder).kind ?? .storybook
        let dir = try Self.pictures()
        defer { try? FileManager.default.removeItem(at: dir) }
        var tried = 0
        var seen: [String] = []
        for printer in Self.printers {
            let profile = try PrintProfile.load(named: printer, from: Repository.resources.profiles)
            for trim in profile.trims?.sizes ?? [] where !seen.contains(trim.description) {
                seen.append(trim.description)
                let book = Self.everyPageType(kind: kind, theme: theme, trim: trim, folder: dir)
                let tree = try TestBooks.document(book, folder: dir, profile: printer).layout()
                let at = "\(theme) at \(trim) for \(printer)"
                let errors = tree.findings.filter { $0.severity == .error || $0.kind == .missingGlyph || $0.kind == .placeholder }
                #expect(errors.isEmpty, "\(at): \(errors)")
                let outside = PageTreePreflight.check(tree, profile: profile).filter { [.outsideSafeArea, .stopsAtTrim, .missingGlyph].contains($0.check) }
                #expect(outside.isEmpty, "\(at): \(outside.prefix(3))")
                #expect(tree.pages.contains { $0.textBoxes.contains { $0.text.contains("Great Storm") } }, "\(at): the chapter title is set")
                tried += 1
            }
        }
        #expect(tried >= 30, "\(tried) trims")
    }
}
