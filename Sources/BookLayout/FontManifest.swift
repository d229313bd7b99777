import Foundation

/// `fonts/fonts.json`: the complete list of font files bookrender may use. The manifest is the font
/// set; a file that is not listed here is never visible to layout.
public struct FontManifest: Codable, Sendable, Equatable {
    public struct File: Codable, Sendable, Equatable {
        public var family: String
        public var style: String
        /// CSS/OpenType weight, 100…900.
        public var weight: Int
        public var italic: Bool
        /// Absolute path of the installed file.
        public var path: String
        /// The Debian package that installs it (see scripts/install-deps.sh).
        public var package: String
        public var sha256: String
        /// "text" for faces books are set in, "fallback" for faces that only cover other scripts.
        public var role: String
        /// For a font collection (.ttc): every family the collection holds, all of which become visible.
        public var collectionFamilies: [String]?
    }

    public var schema: Int
    /// What an unknown family name (or one only the host has) is set in.
    public var defaultFamily: String
    /// Generic names themes may use, mapped to families of the set.
    public var aliases: [String: String]
    /// Families appended after the requested one, in this order, for scripts it lacks.
    public var fallbackFamilies: [String]
    /// Replacement fallback lists by language-tag prefix (lowercase, "-" separated): Han
    /// characters are shared by Chinese, Japanese and Korean but drawn differently in each.
    public var fallbackFamiliesByLanguage: [String: [String]]?
    public var files: [File]

    public static func load(from url: URL) throws -> FontManifest {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw FontLibraryError.manifestUnreadable(path: url.path, reason: error.localizedDescription)
        }
        do { return try JSONDecoder().decode(FontManifest.self, from: data) } catch {
            throw FontLibraryError.manifestUnreadable(path: url.path, reason: "\(error)")
        }
    }
}

public enum FontLibraryError: Error, CustomStringConvertible, Equatable {
    case manifestUnreadable(path: String, reason: String)
    case missingFontFile(path: String, face: String, package: String, manifest: String)
    case configUnreadable(path: String, reason: String)
    case fontconfig(String)

    public var description: String {
        switch self {
        case let .manifestUnreadable(path, reason):
            return "cannot read the font manifest \(path): \(reason)"
        case let .missingFontFile(path, face, package, manifest):
            return "font file \(path) (\(face), Debian package \(package)) listed in \(manifest) is missing; run scripts/install-deps.sh"
        case let .configUnreadable(path, reason):
            return "cannot use the fontconfig configuration \(path): \(reason)"
        case let .fontconfig(message):
            return "fontconfig: \(message)"
        }
    }
}
