import Foundation
import BookRenderKit
import BookLayout

/// Books for tests, opened through the library with this checkout's themes, profiles and fonts.
public enum TestBooks {
    public static func settings(theme: String? = nil, strict: Bool = false, profile: String? = nil,
                                workers: Int = ProcessInfo.processInfo.activeProcessorCount) -> RenderSettings {
        RenderSettings(theme: theme, profile: profile, strict: strict, workers: workers, home: Repository.root)
    }

    /// `book` with its images in `folder` (a folder of no files when nil).
    public static func document(_ book: Book, folder: URL? = nil, theme: String? = nil, strict: Bool = false,
                                profile: String? = nil) -> BookDocument {
        BookDocument(book: book, folder: folder ?? FileManager.default.temporaryDirectory,
                     settings: settings(theme: theme, strict: strict, profile: profile))
    }

    public static func open(_ file: URL, workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> BookDocument {
        try BookDocument.open(file, settings: settings(workers: workers))
    }
}

/// Typesetters over the private font set, for tests that drive layout's parts directly. Each call
/// makes a new font map: tests run in parallel and Pango objects are not shared between threads.
public enum TestFonts {
    public static func typesetter(language: String = "en-US", extraFonts: [URL] = []) throws -> Typesetter {
        Typesetter(fonts: try FontLibrary.load(manifest: Repository.resources.fontManifest, extraDirectories: extraFonts),
                   language: language)
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
