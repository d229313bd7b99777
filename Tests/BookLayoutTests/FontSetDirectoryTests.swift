import Foundation
import Testing
@testable import BookLayout
import BookTestSupport

/// The folder of links fontconfig scans once and then reads from its cache.
@Suite struct FontSetDirectoryTests {
    func fontCopies(_ dir: URL) throws -> [String] {
        let manifest = try FontManifest.load(from: Repository.resources.fontManifest)
        let sources = Array(Set(manifest.files.map(\.path))).sorted().prefix(3)
        return try sources.map { source in
            let copy = dir.appendingPathComponent((source as NSString).lastPathComponent)
            try FileManager.default.copyItem(atPath: source, toPath: copy.path)
            return copy.path
        }
    }

    @Test func linksEveryFileInOrderAndChangesNameWhenAFileChanges() throws {
        let dir = try temporaryDirectory("fontset")
        let files = try fontCopies(dir)
        let base = dir.appendingPathComponent("cache")
        let folder = try #require(FontSetDirectory.prepare(for: files, under: base))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == files.enumerated().map { String(format: "%03d-", $0.offset) + ($0.element as NSString).lastPathComponent })
        for (name, file) in zip(names, files) {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent(name).path) == file)
        }
        #expect(FontSetDirectory.prepare(for: files, under: base)?.path == folder.path, "the same files: the same folder")
        #expect(FontSetDirectory.prepare(for: files.reversed(), under: base)?.path != folder.path, "another order: another folder")

        // A font updated in place (new modification time) must not be served from the old scan.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: files[0])
        let updated = try #require(FontSetDirectory.prepare(for: files, under: base))
        #expect(updated.path != folder.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path).filter { $0.hasPrefix(".fontset-") }.isEmpty,
                "no staging folder left behind")
    }

    @Test func noFolderWhereNoneCanBeMadeOrAFileIsMissing() throws {
        let dir = try temporaryDirectory("fontset")
        let files = try fontCopies(dir)
        let blocker = dir.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        #expect(FontSetDirectory.prepare(for: files, under: blocker.appendingPathComponent("cache")) == nil)
        #expect(FontSetDirectory.prepare(for: files + [dir.appendingPathComponent("gone.ttf").path], under: dir) == nil)
    }
}
