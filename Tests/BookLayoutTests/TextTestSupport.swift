import Foundation
import BookTestSupport
@testable import BookLayout

/// The repository's fonts/fonts.json, found from this file's location (or BOOKRENDER_HOME).
func fontManifestURL() -> URL {
    if let home = ProcessInfo.processInfo.environment["BOOKRENDER_HOME"], !home.isEmpty {
        return URL(fileURLWithPath: home).appendingPathComponent("fonts/fonts.json")
    }
    return URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fonts/fonts.json")
}

func fontLibrary() throws -> FontLibrary {
    try FontLibrary.load(manifest: fontManifestURL())
}

/// A fresh Typesetter for one test: tests run in parallel, and Pango font maps must not be shared.
func makeTypesetter(language: String = "en-US") throws -> Typesetter {
    Typesetter(fonts: try fontLibrary(), language: language)
}

func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }

let bodyStyle = TextStyle(family: "Linux Libertine O", size: 12, weight: 400, italic: false, lineHeight: 1.4)
let childrenStyle = TextStyle(family: "Andika", size: 16, weight: 400, italic: false, lineHeight: 1.5)

let sampleEnglish = SampleTexts.english
