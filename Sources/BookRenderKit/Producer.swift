import Foundation
import BookBase
import CGraphics

/// What made a report: this library's version, the font set and the drawing libraries loaded at
/// run time. A golden image that changed is explained by one of these changing.
public struct Producer: Sendable, Codable, Equatable {
    public var bookrender: String
    /// `sha256:` and the SHA-256 of `fonts/fonts.json`, which lists every font file with its own
    /// SHA-256, so a different face or fallback order is a different hash. Nil when bookrender's
    /// data folder cannot be found.
    public var fontSet: String?
    public var cairo: String
    public var pango: String
    public var harfbuzz: String

    /// The producer of this process, with the font set `settings` would use.
    public static func current(_ settings: RenderSettings = RenderSettings()) -> Producer {
        let manifest = (try? settings.resources())?.fontManifest
        return Producer(bookrender: BookRenderKit.version,
                        fontSet: manifest.flatMap { FileManager.default.contents(atPath: $0.path) }.map { "sha256:" + SHA256.hex($0) },
                        cairo: String(cString: cairo_version_string()),
                        pango: String(cString: pango_version_string()),
                        harfbuzz: String(cString: hb_version_string()))
    }

    /// As `--version` prints it.
    public var lines: [String] {
        ["bookrender \(bookrender)", "font set \(fontSet ?? "not found (set BOOKRENDER_HOME)")",
         "cairo \(cairo)", "Pango \(pango)", "HarfBuzz \(harfbuzz)"]
    }
}
