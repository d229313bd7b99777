import Testing
import Foundation
import BookRenderKit
import BookTestSupport

/// A preview folder follows edits page by page: the pages an edit changes are rewritten, no other
/// file is touched, and every page is the same file `export --png` writes.
@Suite struct BookPreviewTests {
    let dpi = 40.0

    /// A copy of the sample storybook to edit, and a folder for its pages.
    func copyOfStorybook() throws -> (book: URL, pages: URL, root: URL) {
        let root = try temporaryDirectory("preview")
        let book = root.appendingPathComponent("book")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: book)
        return (book.appendingPathComponent("book.json"), root.appendingPathComponent("pages"), root)
    }

    /// Each page file's identity and bytes, to tell a rewritten file from one left alone.
    func snapshot(_ folder: URL) throws -> [String: (inode: UInt64, modified: Date, data: Data)] {
        var files: [String: (inode: UInt64, modified: Date, data: Data)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".png") {
            let url = folder.appendingPathComponent(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            files[name] = ((attributes[.systemFileNumber] as! NSNumber).uint64Value, attributes[.modificationDate] as! Date,
                           try Data(contentsOf: url))
        }
        return files
    }

    func rewritten(_ before: [String: (inode: UInt64, modified: Date, data: Data)],
                   _ after: [String: (inode: UInt64, modified: Date, data: Data)]) -> [String] {
        after.keys.filter { name in
            guard let old = before[name] else { return true }
            return old.inode != after[name]!.inode || old.modified != after[name]!.modified
        }.sorted()
    }

    @Test func anEditRewritesOnlyThePageItChanges() throws {
        let (book, pages, root) = try copyOfStorybook()
        defer { try? FileManager.default.removeItem(at: root) }
        let preview = try BookPreview(book: book, png: pages, dpi: dpi, settings: TestBooks.settings())

        let first = try preview.refresh()
        #expect(first.written == Array(1...first.pageCount))
        let rendered = try snapshot(pages)
        #expect(rendered.count == first.pageCount)

        // Nothing changed: nothing is written.
        let again = try preview.refresh()
        #expect(again.written == [] && again.removed == [])
        #expect(rewritten(rendered, try snapshot(pages)) == [])

        // One page's text.
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: book)) as! [String: Any]
        var bookPages = json["pages"] as! [[String: Any]]
        let edited = try #require(bookPages.firstIndex { $0["text"] is String })
        bookPages[edited]["text"] = (bookPages[edited]["text"] as! String) + " And then it rained."
        json["pages"] = bookPages
        try JSONSerialization.data(withJSONObject: json).write(to: book)

        let afterEdit = try preview.refresh()
        #expect(afterEdit.written.count == 1, "\(afterEdit.written)")
        let edits = try snapshot(pages)
        let changed = rewritten(rendered, edits)
        #expect(changed == afterEdit.written.map { String(format: "page-%03d.png", $0) })
        for name in changed { #expect(edits[name]!.data != rendered[name]!.data) }
    }

    @Test func aPictureChangeRewritesThePagesShowingIt() throws {
        let (book, pages, root) = try copyOfStorybook()
        defer { try? FileManager.default.removeItem(at: root) }
        let preview = try BookPreview(book: book, png: pages, dpi: dpi, settings: TestBooks.settings())
        _ = try preview.refresh()
        let before = try snapshot(pages)

        let tree = try TestBooks.open(book).layout()
        let images = book.deletingLastPathComponent().appendingPathComponent("images")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: images.path).filter { $0.hasSuffix(".jpg") }.sorted()
        let (target, other) = (pictures[1], pictures[2])
        let showing = tree.pages.filter { page in page.images.contains { $0.asset.file?.lastPathComponent == target } }.map(\.number)
        try #require(!showing.isEmpty)
        // Another picture of the book, saved over this one: the file is replaced, not edited in place.
        let replaced = images.appendingPathComponent(".replace.jpg")
        try FileManager.default.copyItem(at: images.appendingPathComponent(other), to: replaced)
        #expect(rename(replaced.path, images.appendingPathComponent(target).path) == 0)

        let refresh = try preview.refresh()
        #expect(refresh.written == showing)
        #expect(rewritten(before, try snapshot(pages)) == showing.map { String(format: "page-%03d.png", $0) })
    }

    @Test func thePagesAreTheFilesExportWrites() throws {
        let (book, pages, root) = try copyOfStorybook()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try BookPreview(book: book, png: pages, dpi: dpi, settings: TestBooks.settings()).refresh()
        let exported = root.appendingPathComponent("exported")
        _ = try TestBooks.open(book).export(ExportOptions(pdf: nil, png: .init(folder: exported, dpi: dpi)))
        let a = try snapshot(pages), b = try snapshot(exported)
        #expect(a.keys.sorted() == b.keys.sorted())
        for name in a.keys { #expect(a[name]!.data == b[name]!.data, "\(name)") }
    }

    @Test func aShorterBookLosesItsLastPagesAndABrokenOneLeavesThePagesAlone() throws {
        let (book, pages, root) = try copyOfStorybook()
        defer { try? FileManager.default.removeItem(at: root) }
        let preview = try BookPreview(book: book, png: pages, dpi: dpi, settings: TestBooks.settings())
        let first = try preview.refresh()
        let original = try Data(contentsOf: book)

        try Data("{\"title\": ".utf8).write(to: book)
        let before = try snapshot(pages)
        #expect(throws: BookRenderError.self) { try preview.refresh() }
        #expect(rewritten(before, try snapshot(pages)) == [])

        var json = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        json["pages"] = Array((json["pages"] as! [[String: Any]]).prefix(2))
        try JSONSerialization.data(withJSONObject: json).write(to: book)
        let shorter = try preview.refresh()
        #expect(shorter.pageCount < first.pageCount)
        #expect(shorter.removed == Array(shorter.pageCount + 1...first.pageCount))
        #expect(try snapshot(pages).count == shorter.pageCount)
    }

    /// A save right after the first render (before anything waits for changes) is reported:
    /// `watch` starts watching before it renders, so an editor's save in that moment is not lost.
    @Test func aSaveRightAfterTheFirstRenderIsSeen() throws {
        let (book, pages, root) = try copyOfStorybook()
        defer { try? FileManager.default.removeItem(at: root) }
        let preview = try BookPreview(book: book, png: pages, dpi: dpi, settings: TestBooks.settings())
        try preview.startWatching()
        _ = try preview.refresh()
        // Saved as editors do: a new file renamed over the old.
        let saved = book.deletingLastPathComponent().appendingPathComponent("book.json.new")
        try Data(contentsOf: book).write(to: saved)
        #expect(rename(saved.path, book.path) == 0)

        final class Seen: @unchecked Sendable { var paths: [String]? }
        let seen = Seen(), done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let waiting = preview
        Thread.detachNewThread {
            seen.paths = try? waiting.waitForChanges()
            done.signal()
        }
        // The wait never ends when the save was missed: give it a minute, as a loaded machine may need.
        #expect(done.wait(timeout: .now() + 60) == .success, "the save was not seen")
        #expect(seen.paths?.contains { $0.hasSuffix("book.json") } == true, "\(seen.paths ?? [])")
    }
}
