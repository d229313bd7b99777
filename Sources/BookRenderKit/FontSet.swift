import Foundation
import BookLayout

/// The private font set as `bookrender fonts` lists it: every face of `fonts/fonts.json`, what it
/// is for and which writing systems it draws.
public struct FontSetListing: Sendable, Codable {
    public struct Face: Sendable, Codable, Equatable {
        public var family: String
        public var style: String
        public var weight: Int
        public var italic: Bool
        public var file: String
        /// The Debian package that installs the file.
        public var package: String
        /// text: books are set in it; fallback: it only covers other scripts.
        public var role: String
        /// Of `FontCoverage.probes`, the scripts it has letters for; empty when the file is missing.
        public var scripts: [String]
        public var characters: Int
        public var installed: Bool
    }

    /// The manifest the set is read from.
    public var manifest: String
    public var fontSet: String?
    public var defaultFamily: String
    public var fallbackFamilies: [String]
    public var faces: [Face]
    /// A file the manifest lists and the machine lacks.
    public var findings: [Diagnostic]

    /// Reads the manifest of `settings`' data folder and each of its files.
    public static func read(_ settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> FontSetListing {
        let url = try BookRenderError.wrap { try settings.resources().fontManifest }
        let manifest: FontManifest
        do { manifest = try FontManifest.load(from: url) } catch {
            throw BookRenderError(.unreadableInput, "\(error)")
        }
        var findings: [Diagnostic] = []
        let faces = manifest.files.map { file in
            let coverage = FontCoverage.face(file: file.path, family: file.family)
            if coverage == nil {
                findings.append(Diagnostic(.error, stage: .load, kind: "missingFont",
                                           message: "\(file.path) (\(file.family) \(file.style)) cannot be read", file: file.path,
                                           hint: "install the Debian package \(file.package): scripts/install-deps.sh"))
            }
            return Face(family: file.family, style: file.style, weight: file.weight, italic: file.italic, file: file.path,
                        package: file.package, role: file.role, scripts: coverage?.scripts ?? [],
                        characters: coverage?.characters ?? 0, installed: coverage != nil)
        }
        return FontSetListing(manifest: url.path, fontSet: Producer.current(settings).fontSet, defaultFamily: manifest.defaultFamily,
                              fallbackFamilies: manifest.fallbackFamilies, faces: faces, findings: findings)
    }
}
