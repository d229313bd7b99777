import Foundation
import Testing
@testable import BookLayout
import BookTestSupport

@Suite struct FontLibraryTests {
    @Test func manifestChecksumsMatchTheFilesOnDisk() throws {
        let manifest = try FontManifest.load(from: Repository.resources.fontManifest)
        let paths = Array(Set(manifest.files.map(\.path))).sorted()
        let sums = try run("/usr/bin/sha256sum", paths)
        #expect(sums.status == 0, "\(sums.stderr)")
        var onDisk: [String: String] = [:]
        for line in sums.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            onDisk[parts[1].trimmingCharacters(in: .whitespaces)] = String(parts[0])
        }
        for file in manifest.files {
            #expect(onDisk[file.path] == file.sha256, "\(file.path)")
        }
    }

    @Test func everyManifestFaceResolvesToItsOwnFile() throws {
        let library = try fontLibrary()
        for file in library.manifest.files {
            for family in [file.family] + (file.collectionFamilies ?? []) {
                let resolved = library.resolvedFile(family: family, weight: file.weight, italic: file.italic)
                #expect(resolved == file.path, "\(family) \(file.style) → \(resolved ?? "nil")")
            }
        }
    }

    @Test(arguments: [
        ("Linux Libertine O", 400, false, "LinLibertine_R.otf"),
        ("Linux Libertine O", 400, true, "LinLibertine_RI.otf"),
        ("Linux Libertine O", 600, false, "LinLibertine_RZ.otf"),
        ("Linux Libertine O", 600, true, "LinLibertine_RZI.otf"),
        ("Linux Libertine O", 700, false, "LinLibertine_RB.otf"),
        ("Linux Libertine O", 700, true, "LinLibertine_RBI.otf"),
        ("Andika", 400, false, "Andika-Regular.ttf"),
        ("Andika", 400, true, "Andika-Italic.ttf"),
        ("Andika", 600, false, "Andika-Bold.ttf"),
        ("Andika", 700, false, "Andika-Bold.ttf"),
        ("Andika", 700, true, "Andika-BoldItalic.ttf"),
    ])
    func weightsAndStylesResolve(family: String, weight: Int, italic: Bool, expected: String) throws {
        let library = try fontLibrary()
        let resolved = try #require(library.resolvedFile(family: family, weight: weight, italic: italic))
        #expect(fileName(resolved) == expected)
    }

    @Test func libertineBoldIsTheRealBoldFile() throws {
        let library = try fontLibrary()
        let bold = try #require(library.resolvedFile(family: "Linux Libertine O", weight: 700, italic: false))
        #expect(bold == "/usr/share/fonts/opentype/linux-libertine/LinLibertine_RB.otf")
        // A stub like Debian's EB Garamond bold (43 KB, Latin-1 only) would not pass.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bold)[.size] as? Int)
        #expect(size > 200_000)
    }

    @Test(arguments: ["DejaVu Sans", "Liberation Serif", "Noto Sans", "sans-serif", "serif", "Monospace", "NoSuchFont"])
    func hostAndGenericFamiliesResolveToOurFiles(family: String) throws {
        let library = try fontLibrary()
        let ours = Set(library.manifest.files.map(\.path))
        let resolved = try #require(library.resolvedFile(family: family, weight: 400, italic: false))
        #expect(ours.contains(resolved), "\(family) → \(resolved)")
    }

    @Test func unknownFamiliesFallBackToTheDefaultAndGenericNamesToTheirAliases() throws {
        let library = try fontLibrary()
        #expect(library.canonicalFamily("DejaVu Sans") == "Linux Libertine O")
        #expect(!library.hasFamily("DejaVu Sans"))
        #expect(library.canonicalFamily("andika") == "Andika")
        #expect(library.canonicalFamily("sans-serif") == "Andika")
        #expect(library.canonicalFamily("serif") == "Linux Libertine O")
        #expect(fileName(library.resolvedFile(family: "sans-serif", weight: 700, italic: false) ?? "") == "Andika-Bold.ttf")
    }

    @Test func onlyManifestFamiliesAreVisible() throws {
        let library = try fontLibrary()
        var listed = Set<String>()
        for file in library.manifest.files { listed.insert(file.family); listed.formUnion(file.collectionFamilies ?? []) }
        #expect(Set(library.familyNames) == listed)
    }

    @Test func fallbackFamiliesKeepTheManifestOrderAndFollowTheLanguage() throws {
        let library = try fontLibrary()
        #expect(library.fallbackFamilies == ["Noto Sans Hebrew", "Noto Naskh Arabic", "Noto Sans CJK SC", "Noto Color Emoji"])
        #expect(library.fallbackFamilies(forLanguage: "en-US") == library.fallbackFamilies)
        #expect(library.fallbackFamilies(forLanguage: "ja-JP").contains("Noto Sans CJK JP"))
        #expect(library.fallbackFamilies(forLanguage: "zh-Hant-TW").contains("Noto Sans CJK TC"))
        #expect(library.fallbackFamilies(forLanguage: "zh_HK").contains("Noto Sans CJK HK"))
        #expect(library.fallbackFamilies(forLanguage: "zh-Hans").contains("Noto Sans CJK SC"))
        #expect(library.familyList(for: "Andika", language: "ko")
                == "Andika,Noto Sans Hebrew,Noto Naskh Arabic,Noto Sans CJK KR,Noto Color Emoji")
    }

    @Test func loadingTwiceReturnsTheSameLibrary() throws {
        let a = try fontLibrary()
        let b = try FontLibrary.load(manifest: Repository.resources.fontManifest, extraDirectories: [])
        #expect(a === b)
    }

    @Test func aBookFontFolderAddsItsFaces() throws {
        let host = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try #require(FileManager.default.fileExists(atPath: host), "needs a font outside the manifest to copy")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bookfonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("DejaVuSans.ttf")
        try FileManager.default.copyItem(atPath: host, toPath: copy.path)

        let plain = try fontLibrary()
        let withBook = try FontLibrary.load(manifest: Repository.resources.fontManifest, extraDirectories: [dir])
        #expect(plain !== withBook)
        #expect(try FontLibrary.load(manifest: Repository.resources.fontManifest, extraDirectories: [dir, dir]) === withBook)
        #expect(withBook.hasFamily("DejaVu Sans"))
        #expect(withBook.resolvedFile(family: "DejaVu Sans", weight: 400, italic: false) == copy.resolvingSymlinksInPath().path)
        // The folder stays private to the library that was given it.
        #expect(plain.resolvedFile(family: "DejaVu Sans", weight: 400, italic: false) != copy.path)
    }

    @Test func aMissingFontFileIsNamedWithTheInstallScript() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var manifest = try FontManifest.load(from: Repository.resources.fontManifest)
        manifest.files[2].path = "/usr/share/fonts/truetype/andika/Andika-Missing.ttf"
        try JSONEncoder().encode(manifest).write(to: dir.appendingPathComponent("fonts.json"))
        try FileManager.default.copyItem(at: Repository.resources.fontManifest.deletingLastPathComponent().appendingPathComponent("fonts.conf"),
                                         to: dir.appendingPathComponent("fonts.conf"))
        do {
            _ = try FontLibrary.load(manifest: dir.appendingPathComponent("fonts.json"))
            Issue.record("loading a manifest with a missing file succeeded")
        } catch let error as FontLibraryError {
            let message = error.description
            #expect(message.contains("/usr/share/fonts/truetype/andika/Andika-Missing.ttf"))
            #expect(message.contains("scripts/install-deps.sh"))
            #expect(message.contains("fonts-sil-andika"))
        }
    }
}
