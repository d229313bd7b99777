import Foundation
import Testing
@testable import BookModel
import BookTestSupport

/// The book file is read only if it is a regular file: a FIFO named as the book (or as the
/// book.json of a folder) must not hold the run until something writes to it, nor a device be
/// read as a book.
@Suite("The book file is a regular file")
struct BookFileKindTests {
    final class Failure: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: BookError?
        private var loaded = false
        var error: BookError? { lock.withLock { stored } }
        var wasLoaded: Bool { lock.withLock { loaded } }
        func record(_ body: () throws(BookError) -> LoadedBook) {
            do {
                _ = try body()
                lock.withLock { loaded = true }
            } catch {
                lock.withLock { stored = error }
            }
        }
    }

    func loading(_ url: URL, unblocking fifos: [URL]) -> (returned: Bool, failure: Failure) {
        let failure = Failure()
        let returned = HostileFolders.finishes(within: 20, unblocking: fifos) {
            failure.record { () throws(BookError) in try BookLoader.load(contentsOf: url) }
        }
        return (returned, failure)
    }

    @Test func aFIFONamedAsTheBookIsRefusedWithoutWaiting() throws {
        let dir = try temporaryDirectory("fifo-book")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("story.json")
        try HostileFolders.fifo(fifo)
        let (returned, failure) = loading(fifo, unblocking: [fifo])
        #expect(returned, "reading the FIFO blocked")
        let error = try #require(failure.error, "a FIFO was read as a book")
        #expect(error.kind == .io, "an input that cannot be read: exit 66")
        #expect(error.description.hasPrefix(fifo.path + ": ") && error.description.contains("FIFO"), "\(error.description)")
    }

    @Test func aFolderWhoseBookJSONIsAFIFOIsRefusedToo() throws {
        let dir = try temporaryDirectory("fifo-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("book.json")
        try HostileFolders.fifo(fifo)
        let (returned, failure) = loading(dir, unblocking: [fifo])
        #expect(returned, "reading the FIFO blocked")
        let error = try #require(failure.error, "a FIFO was read as a book")
        #expect(error.kind == .io)
        #expect(error.description.contains("book.json") && error.description.contains("FIFO"), "\(error.description)")
    }

    @Test func aFolderWhoseBookJSONIsALinkIsRefused() throws {
        let dir = try temporaryDirectory("linked-book")
        defer { try? FileManager.default.removeItem(at: dir) }
        let book = dir.appendingPathComponent("book"), elsewhere = dir.appendingPathComponent("elsewhere.json")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try Data(#"{"schema": 1, "kind": "storybook", "title": "Elsewhere", "pages": []}"#.utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: book.appendingPathComponent("book.json").path, withDestinationPath: "../elsewhere.json")
        let (returned, failure) = loading(book, unblocking: [])
        #expect(returned)
        #expect(!failure.wasLoaded, "the book was read through a link in its folder")
        let error = try #require(failure.error)
        #expect(error.kind == .io)
        #expect(error.description.contains("book.json: is a symbolic link"), "\(error.description)")
    }

    @Test func aDeviceIsNotReadAsABook() throws {
        let (returned, failure) = loading(URL(fileURLWithPath: "/dev/null"), unblocking: [])
        #expect(returned)
        let error = try #require(failure.error)
        #expect(error.kind == .io, "\(error.description)")
        #expect(error.description == "/dev/null: is a device, not a file; name the book's book.json (or the app's saved file) itself")
    }
}
