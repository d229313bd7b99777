import Foundation
import BookTestSupport
@testable import BookLayout
import BookTestSupport

func fontLibrary() throws -> FontLibrary {
    try FontLibrary.load(manifest: Repository.resources.fontManifest)
}

/// A fresh Typesetter for one test: tests run in parallel, and Pango font maps must not be shared.
func makeTypesetter(language: String = "en-US") throws -> Typesetter {
    Typesetter(fonts: try fontLibrary(), language: language, hyphenationExceptions: Repository.resources.hyphenation)
}

func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }

let bodyStyle = TextStyle(family: "Linux Libertine O", size: 12, weight: 400, italic: false, lineHeight: 1.4)
let childrenStyle = TextStyle(family: "Andika", size: 16, weight: 400, italic: false, lineHeight: 1.5)

let sampleEnglish = SampleTexts.english
