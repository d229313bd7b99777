import Foundation
import CGraphics
import CShim
import BookResolve

/// The project's private font set as one fontconfig configuration: exactly the files of
/// `fonts/fonts.json` (plus the fonts a book brings, as checked copies, see `BookFontFolder`), so
/// no font installed on the host can change a glyph or a line break.
///
/// Shared across threads on purpose: an FcConfig is only read after it is built, and fontconfig
/// locks its own caches. Everything Pango builds on top of it (font maps, contexts, layouts) is
/// per thread; see `Typesetter`.
public final class FontLibrary: @unchecked Sendable {
    /// Whether a font set opens and holds every face it has as it is made (see `shim_hold_faces`):
    /// what a process that lays out many books, themes or scripts at once needs, as cairo 1.16
    /// closes faces in use once more than ten are open. A process of one book may turn it off before
    /// it loads a font set (the faces it uses are then held from their first run of glyphs) and
    /// save opening them all.
    nonisolated(unsafe) public static var holdsEveryFace = true

    public let manifest: FontManifest
    public let manifestURL: URL
    public let extraDirectories: [URL]
    /// The FcConfig every Typesetter's font map is bound to. Owned by the library; never destroyed
    /// while the process runs, because loaded libraries are cached for reuse.
    public let config: OpaquePointer
    /// Every family name the configuration can match, as fontconfig spells it.
    public let familyNames: [String]
    /// The manifest file each link of the cached font-set folder stands for (see `FontSetDirectory`),
    /// and the book's font file each checked copy stands for (see `BookFontFolder`).
    private let realPaths: [String: String]

    /// The font file behind a path fontconfig reports: the manifest's own path, never the link;
    /// the book's own path, never the copy.
    public func realPath(_ fontconfigPath: String) -> String { realPaths[fontconfigPath] ?? fontconfigPath }
    private let familiesByKey: [String: String]
    private let aliasesByKey: [String: String]

    /// The manifest's fallback families, in the manifest's order.
    public var fallbackFamilies: [String] { manifest.fallbackFamilies }

    /// Loads (or returns the already loaded) library for this manifest, set of extra folders
    /// (trusted, such as a test's) and fonts a book brings (checked, see `BookFonts`).
    /// The first library ever loaded becomes fontconfig's current configuration, before any Pango
    /// font map exists: Pango starts a thread that calls FcInit(), which would otherwise read
    /// /etc/fonts and the host's caches.
    public static func load(manifest: URL, extraDirectories: [URL] = [], bookFonts: BookFonts = .none) throws -> FontLibrary {
        let manifestURL = manifest.standardizedFileURL.resolvingSymlinksInPath()
        var seen = Set<String>()
        var extras = extraDirectories
            .map { $0.standardizedFileURL.resolvingSymlinksInPath() }
            .filter { seen.insert($0.path).inserted }
            .sorted { $0.path < $1.path }
        var originals: [String: String] = [:]
        if !bookFonts.fonts.isEmpty {
            let prepared = try BookFontFolder.prepare(bookFonts, under: FontSetDirectory.base())
            extras.append(prepared.folder)
            originals = prepared.originals
        }
        // The book's paths are in the key too: what the library names as a font's file is the book's own.
        let key = ([manifestURL.path] + extras.map(\.path) + originals.values.sorted()).joined(separator: "\u{0}")
        return try LibraryCache.shared.library(for: key) {
            try FontLibrary(manifestURL: manifestURL, extraDirectories: extras, originals: originals)
        }
    }

    /// Starts loading the library for `manifest` (no extra folders) on a thread of its own, so
    /// that fontconfig's scan of the font files (tens of milliseconds) overlaps other work such as
    /// reading a book's images. A later `load` of the same library waits for it; an error is left
    /// for that `load` to report.
    public static func preload(manifest: URL) {
        Thread.detachNewThread { _ = try? load(manifest: manifest) }
    }

    /// `originals`: the book's font file each copy in `extraDirectories` stands for.
    private init(manifestURL: URL, extraDirectories: [URL], originals: [String: String]) throws {
        let manifest = try FontManifest.load(from: manifestURL)
        for file in manifest.files where !FileManager.default.fileExists(atPath: file.path) {
            throw FontLibraryError.missingFontFile(path: file.path, face: "\(file.family) \(file.style)",
                                                   package: file.package, manifest: manifestURL.path)
        }
        let confURL = manifestURL.deletingLastPathComponent().appendingPathComponent("fonts.conf")
        let confText: String
        do { confText = try String(contentsOf: confURL, encoding: .utf8) } catch {
            throw FontLibraryError.configUnreadable(path: confURL.path, reason: error.localizedDescription)
        }

        guard let config = FcConfigCreate() else { throw FontLibraryError.fontconfig("FcConfigCreate failed") }
        var keep = false
        defer { if !keep { FcConfigDestroy(config) } }

        guard FcConfigParseAndLoadFromMemory(config, confText, FcBool(FcTrue)) == FcBool(FcTrue) else {
            throw FontLibraryError.configUnreadable(path: confURL.path, reason: "fontconfig rejected it")
        }
        let fallbackCache = Self.temporaryCacheDirectory()
        let cacheXML = "<fontconfig><cachedir>\(Self.xmlEscaped(fallbackCache))</cachedir></fontconfig>"
        guard FcConfigParseAndLoadFromMemory(config, cacheXML, FcBool(FcTrue)) == FcBool(FcTrue) else {
            throw FontLibraryError.fontconfig("cannot add the cache directory \(fallbackCache)")
        }
        // Building before adding application fonts gives the (empty) system set fontconfig expects
        // to find; the fonts below go into the application set.
        guard FcConfigBuildFonts(config) == FcBool(FcTrue) else {
            throw FontLibraryError.fontconfig("FcConfigBuildFonts failed")
        }
        var added = Set<String>()
        let files = manifest.files.map(\.path).filter { added.insert($0).inserted }
        var links: [String: String] = [:]
        if let folder = FontSetDirectory.prepare(for: files, under: FontSetDirectory.base()),
           FcConfigAppFontAddDir(config, folder.path) == FcBool(FcTrue),
           Self.fileCount(config) == files.count {
            for (i, path) in files.enumerated() {
                links[folder.appendingPathComponent(String(format: "%03d-", i) + (path as NSString).lastPathComponent).path] = path
            }
        } else {
            // No usable cache folder: scan the files themselves, as fontconfig does without a cache.
            FcConfigAppFontClear(config)
            for (file, path) in zip(manifest.files.filter { files.contains($0.path) }, files) {
                guard FcConfigAppFontAddFile(config, path) == FcBool(FcTrue) else {
                    throw FontLibraryError.fontconfig("cannot read font file \(path) (\(file.family) \(file.style))")
                }
            }
        }
        self.realPaths = links.merging(originals) { link, _ in link }
        for dir in extraDirectories where FileManager.default.fileExists(atPath: dir.path) {
            guard FcConfigAppFontAddDir(config, dir.path) == FcBool(FcTrue) else {
                throw FontLibraryError.fontconfig("cannot read font folder \(dir.path)")
            }
        }
        LibraryCache.shared.makeCurrentOnce(config)
        // Before anything can lay out with them: see the shim.
        if Self.holdsEveryFace { _ = shim_hold_faces(config) }

        self.manifest = manifest
        self.manifestURL = manifestURL
        self.extraDirectories = extraDirectories
        self.config = config
        let names = Self.listFamilies(config)
        var byKey: [String: String] = [:]
        for name in names where byKey[name.lowercased()] == nil { byKey[name.lowercased()] = name }
        self.familyNames = names
        self.familiesByKey = byKey
        var aliases: [String: String] = [:]
        for (alias, target) in manifest.aliases { aliases[alias.lowercased()] = target }
        self.aliasesByKey = aliases
        keep = true
    }

    /// True when `family` names a face of this set (or one of the manifest's aliases).
    public func hasFamily(_ family: String) -> Bool {
        let key = family.trimmingCharacters(in: .whitespaces).lowercased()
        return familiesByKey[key] != nil || aliasesByKey[key] != nil
    }

    /// The family text is actually set in for a requested name: itself when the set has it, the
    /// alias target for a generic name, else the manifest's default family. Doing this here
    /// rather than leaving it to fontconfig matters: with an unknown first family, fontconfig would
    /// pick whichever listed fallback covers Latin (Noto Sans CJK does), not a book face.
    public func canonicalFamily(_ family: String) -> String {
        let key = family.trimmingCharacters(in: .whitespaces).lowercased()
        if let name = familiesByKey[key] { return name }
        if let target = aliasesByKey[key] { return familiesByKey[target.lowercased()] ?? target }
        return manifest.defaultFamily
    }

    /// The fallback list for a BCP 47 language tag: the manifest's list for the longest matching
    /// prefix of the tag, else the default list.
    public func fallbackFamilies(forLanguage language: String) -> [String] {
        guard let byLanguage = manifest.fallbackFamiliesByLanguage else { return fallbackFamilies }
        var parts = language.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        while !parts.isEmpty {
            if let list = byLanguage[parts.joined(separator: "-")] { return list }
            parts.removeLast()
        }
        return fallbackFamilies
    }

    /// The comma-separated family list Pango is given: the canonical family, then the fallbacks.
    public func familyList(for family: String, language: String) -> String {
        let primary = canonicalFamily(family)
        return ([primary] + fallbackFamilies(forLanguage: language).filter { $0 != primary }).joined(separator: ",")
    }

    /// The file Pango loads for Latin text in this family and style, as a Typesetter would set it.
    public func resolvedFile(family: String, weight: Int, italic: Bool) -> String? {
        resolvedFile(family: family, weight: weight, italic: italic, language: "en")
    }

    public func resolvedFile(family: String, weight: Int, italic: Bool, language: String) -> String? {
        // A private font map and context per call: they are cheap, and sharing them between
        // threads is what breaks Pango.
        let session = PangoSession(library: self, language: language)
        let desc = session.fontDescription(family: familyList(for: family, language: language),
                                           size: 12, weight: weight, italic: italic)
        defer { pango_font_description_free(desc) }
        guard let font = pango_font_map_load_font(session.fontMap, session.context, desc) else { return nil }
        defer { shim_object_unref(UnsafeMutableRawPointer(font)) }
        guard let cPath = shim_font_file(font) else { return nil }
        defer { g_free(cPath) }
        return realPath(String(cString: cPath))
    }

    // MARK: - Helpers

    /// How many font files the application set holds (each link of the folder must have been scanned).
    private static func fileCount(_ config: OpaquePointer) -> Int {
        guard let set = FcConfigGetFonts(config, FcSetApplication) else { return 0 }
        var files = Set<String>()
        for i in 0..<Int(set.pointee.nfont) {
            var file: UnsafeMutablePointer<FcChar8>?
            if FcPatternGetString(set.pointee.fonts[i], FC_FILE, 0, &file) == FcResultMatch, let file {
                files.insert(String(cString: file))
            }
        }
        return files.count
    }

    private static func listFamilies(_ config: OpaquePointer) -> [String] {
        guard let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        _ = FcObjectSetAdd(objects, FC_FAMILY)
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var names = Set<String>()
        let count = Int(set.pointee.nfont)
        for i in 0..<count {
            guard let font = set.pointee.fonts[i] else { continue }
            var n: Int32 = 0
            var value: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(font, FC_FAMILY, n, &value) == FcResultMatch, let value {
                names.insert(String(cString: value))
                n += 1
            }
        }
        return names.sorted()
    }

    private static func temporaryCacheDirectory() -> String {
        let tmp = FileManager.default.temporaryDirectory.path
        return (tmp as NSString).appendingPathComponent("bookrender-fontconfig-\(getuid())")
    }

    private static func xmlEscaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// Loaded libraries, one per manifest and set of extra folders, for the life of the process: a
/// Typesetter per thread must not pay for scanning 40 MB of CJK collections each time.
private final class LibraryCache: @unchecked Sendable {
    static let shared = LibraryCache()
    private let lock = NSLock()
    private var libraries: [String: FontLibrary] = [:]
    private var madeCurrent = false

    func library(for key: String, make: () throws -> FontLibrary) throws -> FontLibrary {
        lock.lock()
        defer { lock.unlock() }
        if let library = libraries[key] { return library }
        let library = try make()
        libraries[key] = library
        return library
    }

    /// Called with the lock held, from `make`.
    func makeCurrentOnce(_ config: OpaquePointer) {
        guard !madeCurrent else { return }
        madeCurrent = true
        _ = FcConfigSetCurrent(config)
    }
}

/// A font map and context bound to a library's config, with the device-independent settings
/// layout needs. Owned by one thread.
final class PangoSession {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer

    init(library: FontLibrary, language: String) {
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT),
              let fcMap = shim_fc_font_map(map) else {
            fatalError("Pango has no fontconfig/FreeType font map")
        }
        pango_fc_font_map_set_config(fcMap, library.config)
        guard let context = pango_font_map_create_context(map) else { fatalError("pango_font_map_create_context failed") }
        // Hinting and rounding would snap advances to the device grid, so the same text would
        // break differently in the PDF and in a 150-dpi PNG.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        // fontconfig ranks language coverage above style, and the context language is NULL
        // unless set.
        pango_context_set_language(context, pango_language_from_string(language.isEmpty ? "und" : language))
        self.fontMap = map
        self.context = context
        // Before this session lays out anything, and before any other thread's can: see the shim.
        let desc = fontDescription(family: library.manifest.defaultFamily, size: 12, weight: 400, italic: false)
        if let font = pango_font_map_load_font(map, context, desc) {
            shim_serialize_pango_font_metrics(font)
            shim_object_unref(UnsafeMutableRawPointer(font))
        }
        pango_font_description_free(desc)
    }

    deinit {
        shim_object_unref(UnsafeMutableRawPointer(context))
        shim_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// A description for `family` (possibly a comma-separated list); caller frees it.
    func fontDescription(family: String, size: Double, weight: Int, italic: Bool) -> OpaquePointer {
        let desc = pango_font_description_new()!
        pango_font_description_set_family(desc, family)
        pango_font_description_set_absolute_size(desc, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(desc, PangoWeight(rawValue: .init(min(1000, max(100, weight)))))
        pango_font_description_set_style(desc, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        return desc
    }
}
