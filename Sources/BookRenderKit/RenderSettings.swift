import Foundation
import BookConfig
import BookModel

/// What every operation on a book shares: the theme and print profile it is rendered with, how
/// strictly, on how many threads, and where bookrender's own data (themes, profiles, the font
/// set) lives.
public struct RenderSettings: Sendable {
    /// A theme from `templates/` instead of the book's own (`picture-book`, `memoir`).
    public var theme: String?
    /// A print profile from `templates/profiles/` (`kdp`, `lulu`, `ingramspark`, `proof`, `screen`).
    public var profile: String?
    /// A missing image, a placeholder or a missing glyph is an error instead of a warning.
    public var strict: Bool
    /// Threads for reading images, laying out long texts, copying pictures into the PDF and
    /// rasterizing PNG pages. The files are the same whatever the number; 1 keeps all work on the
    /// calling thread.
    public var workers: Int
    /// The folder holding `templates/` and `fonts/`; nil: `BOOKRENDER_HOME`, else the nearest such
    /// folder above the running program or the working directory.
    public var home: URL?
    /// How large a picture (pixels) and a text (characters) may be; past them the book is refused
    /// before anything is allocated for them.
    public var limits: InputLimits
    /// How the printed book is bound: the printer's page counts differ (Lulu binds a hardcover
    /// from 24 pages, a paperback from 32).
    public var binding: CoverBinding

    public init(theme: String? = nil, profile: String? = nil, strict: Bool = false,
                workers: Int = ProcessInfo.processInfo.activeProcessorCount, home: URL? = nil,
                limits: InputLimits = InputLimits(), binding: CoverBinding = .paperback) {
        self.theme = theme; self.profile = profile; self.strict = strict; self.workers = workers; self.home = home
        self.limits = limits; self.binding = binding
    }

    func resources() throws -> ResourceLocator {
        guard let home else { return try ResourceLocator.locate() }
        let located = ResourceLocator(root: home)
        guard FileManager.default.fileExists(atPath: located.fontManifest.path),
              FileManager.default.fileExists(atPath: located.templates.path) else {
            throw ConfigError("\(home.path) has no templates/ and fonts/fonts.json; give the folder bookrender's data is in")
        }
        return located
    }

    func checked() throws(BookRenderError) -> RenderSettings {
        guard workers >= 1 else { throw BookRenderError(.invalidOptions, "workers must be at least 1, not \(workers)") }
        for (name, value) in [("max image pixels", limits.maxImagePixels), ("max text length", limits.maxTextLength),
                              ("max book text length", limits.maxBookTextLength), ("max word length", limits.maxWordLength)] where value < 1 {
            throw BookRenderError(.invalidOptions, "the \(name) must be at least 1, not \(value)")
        }
        if let profile { try Self.checkProfileName(profile, in: try? resources()) }
        return self
    }

    /// A profile that is not there is a mistyped option, not a bad book: the message lists those
    /// that are. A profile file that is there but invalid is left for loading to report.
    static func checkProfileName(_ name: String, in resources: ResourceLocator?) throws(BookRenderError) {
        guard let resources else { return }
        let file = resources.profiles.appendingPathComponent(name + ".json")
        let plain = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        guard !plain || !FileManager.default.fileExists(atPath: file.path) else { return }
        do {
            _ = try PrintProfile.load(named: name, from: resources.profiles)
        } catch {
            throw BookRenderError(.invalidOptions, "--profile: \(error)")
        }
    }
}
