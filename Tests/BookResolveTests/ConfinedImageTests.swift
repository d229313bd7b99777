import Foundation
import Testing
import BookBase
import BookModel
@testable import BookResolve
import BookTestSupport

/// Only regular files inside the book's folder are read as pictures, through no symbolic link,
/// whatever FIFOs and devices the folder holds, and a picture swapped for a link after it was
/// probed is never read.
/// Each test runs twice: with the kernel confining the lookup (openat2) and with the walk that
/// stands in for it where the kernel has no openat2.
@Suite("Images confined to the book's folder")
struct ConfinedImageTests {
    struct Folder {
        let book: URL
        let real: Data
        let secret: Data
        let fifos: [URL]
    }

    /// A book folder with one real picture and every kind of way out, beside a folder holding a
    /// picture it must never read.
    func hostileFolder() throws -> Folder {
        let root = try temporaryDirectory("confined")
        let book = root.appendingPathComponent("book"), outside = root.appendingPathComponent("outside")
        let images = book.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let real = try TestImages.gradientJPEG(width: 160, height: 120)
        let secret = try HostileFolders.outsideJPEG(sizedLike: real, marker: "NOT-IN-THE-BOOK")
        try real.write(to: images.appendingPathComponent("real.jpg"))
        try secret.write(to: outside.appendingPathComponent("secret.jpg"))
        try HostileFolders.link(images.appendingPathComponent("alias.jpg"), to: "real.jpg")
        try HostileFolders.link(images.appendingPathComponent("sub/up.jpg"), to: "../real.jpg")
        try HostileFolders.link(images.appendingPathComponent("escape.jpg"), to: "../../outside/secret.jpg")
        try HostileFolders.link(images.appendingPathComponent("absolute.jpg"), to: images.appendingPathComponent("real.jpg").path)
        try HostileFolders.link(images.appendingPathComponent("outdir"), to: "../../outside")
        try HostileFolders.link(images.appendingPathComponent("zero.jpg"), to: "/dev/zero")
        let fifo = images.appendingPathComponent("fifo.jpg")
        try HostileFolders.fifo(fifo)
        return Folder(book: book, real: real, secret: secret, fifos: [fifo])
    }

    func locator(_ folder: URL, kernel: Bool) -> AssetLocator {
        kernel ? AssetLocator(folder: folder) : AssetLocator(root: BookFolder(folder, kernelConfines: false))
    }

    func found(_ locator: AssetLocator, _ path: String) throws -> ImageAsset {
        guard case .found(let asset) = try locator.load(.path(path), jsonPath: "$.pages[0].image") else {
            throw ToolError("\(path) was not found")
        }
        return asset
    }

    @Test(arguments: [true, false])
    func theBooksOwnFilesAreRead(kernel: Bool) throws {
        let folder = try hostileFolder()
        defer { try? FileManager.default.removeItem(at: folder.book.deletingLastPathComponent()) }
        let locator = locator(folder.book, kernel: kernel)
        for path in ["images/real.jpg", "./images/real.jpg", "images/sub/../real.jpg"] {
            let asset = try found(locator, path)
            #expect(asset.id == ContentHash.hex(folder.real), "\(path)")
            #expect(asset.data == folder.real, "\(path)")
        }
        guard case .missing = try locator.load(.path("images/none.jpg"), jsonPath: "$.x") else {
            Issue.record("a missing picture is not reported missing")
            return
        }
    }

    @Test(arguments: [true, false])
    func everyWayOutIsRefusedByName(kernel: Bool) throws {
        let folder = try hostileFolder()
        defer { try? FileManager.default.removeItem(at: folder.book.deletingLastPathComponent()) }
        let locator = locator(folder.book, kernel: kernel)
        // Every link is refused, even one that stays inside: following none is what makes a swap harmless.
        let expected = [
            "images/escape.jpg": "is a symbolic link (to ../../outside/secret.jpg)",
            "images/absolute.jpg": "is a symbolic link (to /",
            "images/alias.jpg": "is a symbolic link (to real.jpg)",
            "images/sub/up.jpg": "is a symbolic link (to ../real.jpg)",
            "images/outdir/secret.jpg": "goes through images/outdir, which is a symbolic link (to ../../outside)",
            "images/zero.jpg": "is a symbolic link (to /dev/zero)",
            "images/fifo.jpg": "is a FIFO (named pipe), not a file",
            "images/sub": "is a folder, not a file",
            "../outside/secret.jpg": "points outside the book's folder",
            "images/../../outside/secret.jpg": "points outside the book's folder",
        ]
        for (path, reason) in expected.sorted(by: { $0.key < $1.key }) {
            let outcome = Outcome()
            let returned = HostileFolders.finishes(within: 20, unblocking: folder.fifos) {
                do {
                    outcome.set(try locator.load(.path(path), jsonPath: "$.pages[3].image"))
                } catch {
                    outcome.set("\(error)")
                }
            }
            #expect(returned, "loading \(path) blocked")
            switch outcome.value {
            case .error(let message)?:
                #expect(message.contains("$.pages[3].image") && message.contains(path) && message.contains(reason), "\(message)")
            case .found(let asset)?:
                Issue.record("\(path) was read (\(asset.byteCount) bytes)")
            case .missing?, nil:
                Issue.record("\(path): no error")
            }
        }
    }

    @Test(arguments: [true, false])
    func aPictureSwappedForALinkAfterItWasProbedIsNeverRead(kernel: Bool) throws {
        let folder = try hostileFolder()
        defer { try? FileManager.default.removeItem(at: folder.book.deletingLastPathComponent()) }
        let locator = locator(folder.book, kernel: kernel)
        let asset = try found(locator, "images/real.jpg")
        let inBook = folder.book.appendingPathComponent("images/real.jpg")
        try FileManager.default.removeItem(at: inBook)
        try HostileFolders.link(inBook, to: "../../outside/secret.jpg")

        // Drawn from the descriptor it was probed through, or refused: never the link's target.
        if let opened = asset.openFile() {
            #expect(opened.readAll() == folder.real)
        }
        #expect(asset.data != folder.secret)
        #expect(asset.id != ContentHash.hex(folder.secret), "the link is not read to hash the picture")
    }

    /// A picture is opened once, when the book is resolved: drawing and hashing it read that
    /// descriptor, so they read the file that was checked even once its name is gone.
    @Test(arguments: [true, false])
    func aPictureIsReadFromTheDescriptorItWasCheckedThrough(kernel: Bool) throws {
        let folder = try hostileFolder()
        defer { try? FileManager.default.removeItem(at: folder.book.deletingLastPathComponent()) }
        let asset = try found(locator(folder.book, kernel: kernel), "images/real.jpg")
        try FileManager.default.removeItem(at: folder.book.appendingPathComponent("images/real.jpg"))
        #expect(asset.data == folder.real)
        #expect(asset.id == ContentHash.hex(folder.real))
        #expect(asset.openFile()?.readAll() == folder.real)
    }

    @Test(arguments: [true, false])
    func aPicturesFolderThatIsALinkIsRefused(kernel: Bool) throws {
        let folder = try hostileFolder()
        let root = folder.book.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let other = root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try HostileFolders.link(other.appendingPathComponent("images"), to: "../outside")
        let locator = locator(other, kernel: kernel)
        do {
            _ = try locator.load(.path("images/secret.jpg"), jsonPath: "$.cover.photo")
            Issue.record("a picture was read through a linked images folder")
        } catch {
            #expect("\(error)".hasPrefix("$.cover.photo: \"images/secret.jpg\" goes through images, which is a symbolic link (to ../outside)"),
                    "\(error)")
        }
    }

    /// What a load came to, set on another thread.
    final class Outcome: @unchecked Sendable {
        enum Value { case found(ImageAsset), missing, error(String) }
        private let lock = NSLock()
        private var stored: Value?
        var value: Value? { lock.withLock { stored } }
        func set(_ outcome: AssetLocator.Outcome) {
            lock.withLock {
                switch outcome {
                case .found(let asset): stored = .found(asset)
                case .missing: stored = .missing
                }
            }
        }
        func set(_ message: String) { lock.withLock { stored = .error(message) } }
    }
}
