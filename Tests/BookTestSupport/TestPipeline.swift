import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout

/// The stages a test needs, wired as the CLI wires them, with a fresh font map per call
/// (tests run in parallel in one process and Pango objects must not be shared between threads).
public enum TestPipeline {
    public static func resolve(_ book: Book, folder: URL? = nil, theme: String? = nil, strict: Bool = false,
                               profile: String? = nil) throws -> ResolvedBook {
        let resolver = Resolver(templatesDirectory: Repository.resources.templates,
                                options: .init(theme: theme, strict: strict, profile: profile))
        return try resolver.resolve(book, folder: folder ?? FileManager.default.temporaryDirectory)
    }

    public static func typesetter(language: String = "en-US", extraFonts: [URL] = []) throws -> Typesetter {
        let fonts = try FontLibrary.load(manifest: Repository.resources.fontManifest, extraDirectories: extraFonts)
        return Typesetter(fonts: fonts, language: language)
    }

    public static func layout(_ book: Book, folder: URL? = nil, theme: String? = nil) throws -> PageTree {
        let resolved = try resolve(book, folder: folder, theme: theme)
        return BookLayouter(typesetter: try typesetter(language: resolved.language, extraFonts: resolved.bookFontDirectories))
            .layout(resolved)
    }

    public static func layout(file: URL) throws -> PageTree {
        let loaded = try BookLoader.load(contentsOf: file)
        return try layout(loaded.book, folder: loaded.folder)
    }
}

/// Prose with long words, for pagination and hyphenation tests: `paragraphs` paragraphs of varied length.
public func sampleProse(paragraphs: Int, seed: UInt64 = 7) -> String {
    let words = ["the", "garden", "remembered", "extraordinary", "afternoon", "grandmother", "kitchen", "window",
                 "characteristically", "we", "walked", "along", "the", "river", "unbelievably", "quiet", "and",
                 "photographs", "of", "summer", "internationalization", "letters", "arrived", "every", "Tuesday",
                 "responsibility", "neighbourhood", "a", "bicycle", "lighthouse", "comfortable", "silence"]
    var state = seed
    func next() -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int(state >> 33)
    }
    return (0..<paragraphs).map { _ in
        let count = 8 + next() % 120
        var p = (0..<count).map { _ in words[next() % words.count] }.joined(separator: " ")
        p = p.prefix(1).uppercased() + p.dropFirst() + "."
        return p
    }.joined(separator: "\n\n")
}
