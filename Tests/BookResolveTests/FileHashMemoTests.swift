import Foundation
import Testing
@testable import BookResolve
import BookBase
import BookModel
import BookTestSupport

/// A picture file's content hash is remembered by its `stat` stamp, so a re-export reads only
/// its header; a file written since, even to the same size, is hashed again; a file written
/// moments ago is not remembered at all.
@Suite struct FileHashMemoTests {
    func picture(_ colour: String) throws -> Data {
        try TestImages.convert(["-size", "300x400", "xc:\(colour)", "-fill", "#D9622B", "-draw", "circle 230,320 266,320"],
                               output: "out.jpg")
    }

    func resolve(_ dir: URL, cache: PictureAnalysisCache) throws -> ImageAsset {
        let book = Book(kind: .storybook, title: "Discs", pages: [Page(IllustrationPage(image: .path("disc.jpg"), text: "A disc"))])
        let resolved = try Resolver(templatesDirectory: Repository.resources.templates, options: .init(threads: 2, analysisCache: cache))
            .resolve(book, folder: dir)
        return try #require(resolved.pages[0].image.asset)
    }

    func stamp(_ file: URL) throws -> FileHashMemo.Stamp {
        let fd = open(file.path, O_RDONLY)
        defer { close(fd) }
        return try #require(FileHashMemo.Stamp(descriptor: fd))
    }

    @Test func aRememberedHashStandsForTheFileUntilItIsWrittenAgain() throws {
        let dir = try temporaryDirectory("hash-memo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("disc.jpg")
        let blue = try picture("#BFE3F5")
        try blue.write(to: file)
        var cache = PictureAnalysisCache(folder: dir.appendingPathComponent("cache"))
        cache.hashes = FileHashMemo(folder: cache.hashes.folder, settled: 0)

        // The first run hashes the bytes and remembers the hash for the file as it stands.
        let first = try resolve(dir, cache: cache)
        #expect(first.id == ContentHash.hex(blue))
        #expect(cache.hashes.hash(for: try stamp(file)) == ContentHash.hex(blue))

        // What the memo holds is taken without reading the file: a planted hash comes back.
        let planted = String(repeating: "a", count: 32)
        cache.hashes.remember(planted, for: try stamp(file))
        #expect(try resolve(dir, cache: cache).id == planted)

        // The same number of bytes written into the same file: another stamp, hashed again.
        var other = blue
        other[other.count / 2] ^= 0x01
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: other)
        try handle.close()
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == blue.count)
        #expect(try resolve(dir, cache: cache).id == ContentHash.hex(other))
    }

    @Test func aFileWrittenMomentsAgoIsNotRemembered() throws {
        let dir = try temporaryDirectory("hash-memo-fresh")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("disc.jpg")
        try picture("#F3E9D0").write(to: file)
        let cache = PictureAnalysisCache(folder: dir.appendingPathComponent("cache"))
        #expect(cache.hashes.settled >= 1)
        _ = try resolve(dir, cache: cache)
        #expect(cache.hashes.hash(for: try stamp(file)) == nil)
        // Its stamp is remembered once its times lie far enough behind.
        cache.hashes.remember("x", for: try stamp(file), now: Date().addingTimeInterval(cache.hashes.settled + 1))
        #expect(cache.hashes.hash(for: try stamp(file)) == "x")
    }

    @Test func anEntryForAnotherStampOrDamagedIsNotTaken() throws {
        let dir = try temporaryDirectory("hash-memo-damaged")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("disc.jpg")
        try picture("#BFE3F5").write(to: file)
        let memo = FileHashMemo(folder: dir.appendingPathComponent("stamps"), settled: 0)
        let s = try stamp(file)
        memo.remember("h", for: s)
        var bytes = try Data(contentsOf: memo.entry(for: s))
        bytes[bytes.count - 1] ^= 0x20
        try bytes.write(to: memo.entry(for: s))
        #expect(memo.hash(for: s) == nil)
    }
}
