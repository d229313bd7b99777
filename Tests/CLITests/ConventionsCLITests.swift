import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// The command line's conventions: suggestions for a mistyped command, usage errors for flags
/// that do nothing, each with its own command's usage; `init` and `fonts`.
@Suite struct ConventionsCLITests {
    func bookrender(_ args: [String], in dir: URL? = nil) throws -> ToolResult {
        try run(try Repository.binary.path, args, currentDirectory: dir)
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let r = try bookrender(["exprot", "book.json"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("unknown command 'exprot'; did you mean 'export'?"), "\(r.stderr)")
    }

    @Test(arguments: [
        (["export", "BOOK", "-o", "OUT/o.pdf", "--dpi", "100"], "--dpi", "bookrender export"),
        (["cover", "BOOK", "-o", "OUT/c.pdf", "--profile", "kdp", "--dpi", "100"], "--dpi", "bookrender cover"),
        (["preflight", "BOOK", "--profile", "kdp", "--paper", "cream"], "--paper", "bookrender preflight"),
        (["export", "BOOK", "-o", "OUT/o.pdf", "--pages", "zz"], "--pages", "bookrender export"),
        (["export", "BOOK"], "nothing to write", "bookrender export"),
    ])
    func aFlagThatDoesNothingHereIsAUsageErrorWithItsCommandsUsage(_ args: [String], _ named: String, _ usage: String) throws {
        let dir = try temporaryDirectory("conventions")
        let book = Repository.samples.appendingPathComponent("storybook/book.json").path
        let r = try bookrender(args.map { $0 == "BOOK" ? book : $0.replacingOccurrences(of: "OUT", with: dir.path) })
        #expect(r.status == 64, "\(args): \(r.stderr)")
        #expect(r.stderr.contains(named), "\(r.stderr)")
        #expect(r.stderr.contains("Usage: \(usage) "), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func anUnknownProfileIsABadCommandLine() throws {
        let dir = try temporaryDirectory("conventions")
        let book = Repository.samples.appendingPathComponent("storybook/book.json").path
        for args in [["export", book, "-o", dir.appendingPathComponent("o.pdf").path, "--profile", "kdpp"],
                     ["preflight", book, "--profile", "kdpp"]] {
            let r = try bookrender(args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("no print profile \"kdpp\"") && r.stderr.contains("kdp"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.pdf").path))
    }

    @Test func pngsAloneNeedNoPDF() throws {
        let dir = try temporaryDirectory("conventions")
        let book = Repository.samples.appendingPathComponent("storybook/book.json").path
        let r = try bookrender(["export", book, "--png", dir.appendingPathComponent("pages").path, "--dpi", "20"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("pages").path)
        #expect(files.contains("page-001.png") && files.allSatisfy { $0.hasSuffix(".png") }, "\(files)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pages"])
    }

    @Test func everyCommandsHelpPointsToTheExitCodes() throws {
        for command in ["export", "cover", "preflight", "validate", "info", "import", "compare", "batch", "illustrate", "order", "init", "fonts", "themes"] {
            let r = try bookrender(["help", command])
            #expect(r.status == 0)
            let words = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.lowercased().contains("exit") && words.contains("`bookrender --help`"), "\(command): \(words.prefix(600))")
        }
        let root = try bookrender(["--help"])
        for code in ["64", "65", "66", "70", "73"] { #expect(root.stdout.contains(code)) }
        #expect(root.stdout.contains("init") && root.stdout.contains("fonts"))
    }

    @Test(arguments: ["storybook", "memoir"])
    func initStartsABookThatValidatesAndExports(_ kind: String) throws {
        let dir = try temporaryDirectory("init")
        let folder = dir.appendingPathComponent("my-book")
        let r = try bookrender(["init", "--kind", kind, folder.path])
        #expect(r.status == 0, "\(r.stderr)")
        let book = folder.appendingPathComponent("book.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: book)) as? [String: Any])
        #expect(json["kind"] as? String == kind)
        #expect((json["$schema"] as? String)?.hasSuffix("book.schema.json") == true, "\(json["$schema"] ?? "")")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("images").path, isDirectory: &isFolder) && isFolder.boolValue)
        let schema = Repository.root.appendingPathComponent("schema/book.schema.json")
        if let violations = try JSONSchemaCheck.violations(of: try Data(contentsOf: book), against: schema) {
            #expect(violations.isEmpty, "\(violations)")
        }
        #expect(try bookrender(["validate", book.path]).status == 0)
        let export = try bookrender(["export", book.path, "-o", dir.appendingPathComponent("book.pdf").path])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(!export.stderr.contains("unknown field"), "\(export.stderr)")
        #expect(Int(try PDFReaders.info(dir.appendingPathComponent("book.pdf"))["Pages"] ?? "") ?? 0 >= 2)
    }

    @Test func initNeverReplacesABook() throws {
        let dir = try temporaryDirectory("init")
        let book = dir.appendingPathComponent("book.json")
        try Data("{\"mine\": true}".utf8).write(to: book)
        let r = try bookrender(["init", dir.path])
        #expect(r.status == 73)
        #expect(r.stderr.contains("book.json exists"), "\(r.stderr)")
        #expect(try String(contentsOf: book, encoding: .utf8) == "{\"mine\": true}")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("images").path))
    }

    @Test func fontsListsEveryFaceOfTheManifestWithItsScripts() throws {
        let r = try bookrender(["fonts", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let listing = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let faces = try #require(listing["faces"] as? [[String: Any]])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.resources.fontManifest)) as? [String: Any])
        let files = try #require(manifest["files"] as? [[String: Any]])
        #expect(faces.map { $0["file"] as? String } == files.map { $0["path"] as? String })
        func scripts(_ family: String) -> Set<String> {
            Set(faces.first { $0["family"] as? String == family }?["scripts"] as? [String] ?? [])
        }
        #expect(scripts("Noto Sans Hebrew").contains("Hebrew"))
        #expect(!scripts("Noto Sans Hebrew").contains("Han"))
        #expect(scripts("Noto Color Emoji") == ["Emoji"])
        #expect(faces.contains { ($0["scripts"] as? [String])?.contains("Han") == true })
        #expect(scripts(manifest["defaultFamily"] as? String ?? "").contains("Latin"))
        let text = try bookrender(["fonts"])
        #expect(text.status == 0 && text.stdout.contains("Noto Sans Hebrew") && text.stdout.contains("Hebrew"))
    }

    /// Every theme file is listed once, with what a reader picks by: its description, its type
    /// and colours as the theme sets them, the kind of book it is the default for.
    @Test func themesListsEveryThemeWithItsTypeAndColours() throws {
        let r = try bookrender(["themes", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let listing = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let themes = try #require(listing["themes"] as? [[String: Any]])
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.resources.templates.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(themes.map { $0["name"] as? String } == files.map { Optional($0) })
        for theme in themes {
            let name = try #require(theme["name"] as? String)
            let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.resources.templates.appendingPathComponent(name + ".json"))) as? [String: Any])
            let tokens = file["tokens"] as? [String: Any]
            let palette = tokens?["palette"] as? [String: Any]
            let body = (tokens?["typography"] as? [String: Any])?["body"] as? [String: Any]
            #expect(theme["description"] as? String == file["description"] as? String)
            #expect((theme["accent"] as? String)?.uppercased() == (palette?["accent"] as? String)?.uppercased())
            #expect(theme["bodyFamily"] as? String == body?["family"] as? String)
        }
        #expect(themes.first { $0["name"] as? String == "memoir" }?["defaultFor"] as? String == "memoir")
        #expect(themes.first { $0["name"] as? String == "picture-book" }?["defaultFor"] as? String == "storybook")
        let text = try bookrender(["themes"])
        #expect(text.status == 0 && files.allSatisfy { text.stdout.contains($0) }, "\(text.stdout)")
    }

    /// `themes --preview` writes one sheet per theme (the cover and first pages, side by side) of
    /// the sample the theme is made for, or of the book given; no two themes' sheets are alike.
    @Test func themesPreviewWritesASheetOfEveryTheme() throws {
        let dir = try temporaryDirectory("themes-preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        func sheets(_ r: ToolResult) throws -> [[String: Any]] {
            #expect(r.status == 0, "\(r.stderr)")
            let listing = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
            return try #require(listing["sheets"] as? [[String: Any]])
        }
        /// Width and height from the PNG's header.
        func size(_ file: String) throws -> (Int, Int) {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file) is a PNG")
            func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (u32(16), u32(20))
        }
        let themes = try #require(try JSONSerialization.jsonObject(with: bookrender(["themes", "--json"]).stdoutData) as? [String: Any])["themes"] as? [[String: Any]]
        let samples = try sheets(try bookrender(["themes", "--preview", dir.appendingPathComponent("samples").path, "--json"]))
        #expect(samples.map { $0["theme"] as? String } == (themes ?? []).map { $0["name"] as? String })
        var seen = Set<Data>()
        for sheet in samples {
            let file = try #require(sheet["file"] as? String)
            let (width, height) = try size(file)
            // A row of six pages, each at least two thirds as wide as tall.
            #expect(sheet["pages"] as? Int == 6 && width > 3 * height, "\(file): \(width)×\(height)")
            #expect(seen.insert(try Data(contentsOf: URL(fileURLWithPath: file))).inserted, "\(file) is like another theme's sheet")
        }
        #expect((samples.first { $0["theme"] as? String == "memoir" }?["book"] as? String)?.hasSuffix("samples/memoir/book.json") == true)
        #expect((samples.first { $0["theme"] as? String == "picture-book" }?["book"] as? String)?.hasSuffix("samples/storybook/book.json") == true)

        // The user's own book, in every theme, fewer pages.
        let own = Repository.samples.appendingPathComponent("storybook/book.json").path
        let mine = try sheets(try bookrender(["themes", "--preview", dir.appendingPathComponent("mine").path, "--book", own, "--pages", "3", "--json"]))
        #expect(mine.count == samples.count && mine.allSatisfy { $0["book"] as? String == own && $0["pages"] as? Int == 3 })
        let (width, height) = try size(try #require(mine.first?["file"] as? String))
        #expect(width > 3 * height / 2 && width < 3 * height, "\(width)×\(height)")

        // A book that cannot be read is named, and no sheet is written; --book alone is a mistake.
        let missing = dir.appendingPathComponent("none/book.json").path
        let bad = try bookrender(["themes", "--preview", dir.appendingPathComponent("bad").path, "--book", missing])
        #expect(bad.status == 66 && bad.stderr.contains(missing), "\(bad.status) \(bad.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("bad").path)) ?? []).isEmpty)
        #expect(try bookrender(["themes", "--book", own]).status == 64)
    }

    /// `init --theme` starts a book that names the theme and renders in it; an unknown theme is
    /// refused with the themes there, and nothing is written.
    @Test func initWithAThemeNamesItAndAnUnknownOneIsRefused() throws {
        let dir = try temporaryDirectory("init-theme")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("book")
        let r = try bookrender(["init", "--kind", "storybook", "--theme", "memoir", folder.path])
        #expect(r.status == 0, "\(r.stderr)")
        let book = folder.appendingPathComponent("book.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: book)) as? [String: Any])
        #expect(json["theme"] as? String == "memoir" && json["kind"] as? String == "storybook")
        let info = try bookrender(["info", book.path, "--json"])
        #expect(info.status == 0 && info.stdout.contains("\"theme\" : \"memoir\""), "\(info.stdout.prefix(400))")

        let other = dir.appendingPathComponent("other")
        let refused = try bookrender(["init", "--theme", "nope", other.path])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("nope") && refused.stderr.contains("picture-book"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("book.json").path))
    }
}
