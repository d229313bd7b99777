import Foundation
import Testing
import BookModel
import BookRenderKit
@testable import BookLayout
import BookTestSupport

/// A book's `fonts/` folder adds only the font files inside the book's folder: a link (to a font
/// of the system, to a device, even to a font beside it), a `fonts` that is itself a link, a FIFO
/// among the fonts are warned about by name and not used, and none of them holds the export.
@Suite("Book fonts confined to the book's folder")
struct ConfinedBookFontsTests {
    static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

    /// A book set in `family`, in `folder`.
    func book(_ family: String) -> Book {
        var book = Book(kind: .storybook, title: "Own face", pages: [Page(TextPage(text: "Set in the book's own face."))])
        book.tokens = .object(["typography": .object(["body": .object(["family": .string(family)])])])
        return book
    }

    final class Laid: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result<PageTree, BookRenderError>?
        var result: Result<PageTree, BookRenderError>? { lock.withLock { stored } }
        func set(_ value: Result<PageTree, BookRenderError>) { lock.withLock { stored = value } }
    }

    /// The book laid out from `folder`, with a timeout: nil when it did not finish.
    func layout(_ family: String, in folder: URL, fifos: [URL]) throws -> PageTree? {
        let document = TestBooks.document(book(family), folder: folder)
        let laid = Laid()
        let returned = HostileFolders.finishes(within: 60, unblocking: fifos) {
            laid.set(Result { () throws(BookRenderError) in try document.layout() })
        }
        #expect(returned, "the layout blocked")
        return try laid.result?.get()
    }

    func fontFiles(_ tree: PageTree) -> [String] {
        tree.pages.flatMap { $0.textBoxes.flatMap { $0.layout.fontFiles } }
    }

    @Test func linksOutFIFOsAndDevicesAmongTheFontsAreWarnedAboutAndNotUsed() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sans), "needs fonts-dejavu-core (scripts/install-deps.sh)")
        let root = try temporaryDirectory("hostile-fonts")
        defer { try? FileManager.default.removeItem(at: root) }
        let book = root.appendingPathComponent("book"), outside = root.appendingPathComponent("outside")
        let fonts = book.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.serif, toPath: fonts.appendingPathComponent("Own.ttf").path)
        try FileManager.default.copyItem(atPath: Self.sans, toPath: outside.appendingPathComponent("Elsewhere.ttf").path)
        try HostileFolders.link(fonts.appendingPathComponent("System.ttf"), to: Self.sans)
        try HostileFolders.link(fonts.appendingPathComponent("outdir"), to: "../../outside")
        try HostileFolders.link(fonts.appendingPathComponent("zero.ttf"), to: "/dev/zero")
        try HostileFolders.link(fonts.appendingPathComponent("inside.ttf"), to: "Own.ttf")
        let fifo = fonts.appendingPathComponent("pipe.otf")
        try HostileFolders.fifo(fifo)

        let sans = try #require(try layout("DejaVu Sans", in: book, fifos: [fifo]))
        #expect(!fontFiles(sans).contains { $0.hasSuffix("DejaVuSans.ttf") || $0.hasSuffix("System.ttf") || $0.hasSuffix("Elsewhere.ttf") },
                "\(fontFiles(sans))")
        let warnings = sans.findings.map(\.description)
        for (entry, reason) in [("fonts/System.ttf", "is a symbolic link (to \(Self.sans))"), ("fonts/outdir", "is a symbolic link (to ../../outside)"),
                                ("fonts/inside.ttf", "is a symbolic link (to Own.ttf)"),
                                ("fonts/zero.ttf", "is a symbolic link (to /dev/zero)"), ("fonts/pipe.otf", "is a FIFO (named pipe)")] {
            #expect(warnings.contains { $0.hasPrefix("warning: ") && $0.contains(entry + " ") && $0.contains(reason) },
                    "no warning about \(entry): \(warnings)")
        }
        // The font that is a file of the book's folder is used, and named as the book's.
        let serif = try #require(try layout("DejaVu Serif", in: book, fifos: [fifo]))
        #expect(fontFiles(serif).contains(fonts.appendingPathComponent("Own.ttf").path), "\(fontFiles(serif))")
    }

    /// The copies fontconfig opens stand for the book's fonts only where nobody else could have
    /// put other files under their name.
    @Test func copiesAreNotTakenFromAFolderOthersCanWrite() throws {
        let root = try temporaryDirectory("font-copies")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("book"), own = folder.appendingPathComponent("fonts/Own.ttf")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.serif, toPath: own.path)
        let fonts = try TestBooks.document(book("DejaVu Serif"), folder: folder).resolve().bookFonts
        try #require(fonts.fonts.count == 1)

        let shared = root.appendingPathComponent("shared"), mine = root.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        chmod(shared.path, 0o777)
        #expect(throws: (any Error).self) { try BookFontFolder.prepare(fonts, under: shared) }
        let (copies, originals) = try BookFontFolder.prepare(fonts, under: mine)
        let copy = try #require(originals.first { $0.value == own.path }?.key)
        #expect(copy.hasPrefix(copies.path + "/"))
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: Self.serif))
        // Made again from the same fonts: the same folder, trusted once it is checked to be private.
        #expect(try BookFontFolder.prepare(fonts, under: mine).folder.path == copies.path)
        chmod(copies.path, 0o777)
        #expect(throws: (any Error).self) { try BookFontFolder.prepare(fonts, under: mine) }
    }

    @Test func aFontsFolderThatLeadsElsewhereIsNotUsed() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sans), "needs fonts-dejavu-core (scripts/install-deps.sh)")
        let root = try temporaryDirectory("fonts-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let book = root.appendingPathComponent("book"), outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.sans, toPath: outside.appendingPathComponent("Elsewhere.ttf").path)
        try HostileFolders.link(book.appendingPathComponent("fonts"), to: outside.path)

        let tree = try #require(try layout("DejaVu Sans", in: book, fifos: []))
        #expect(!fontFiles(tree).contains { $0.hasSuffix("Elsewhere.ttf") || $0.hasSuffix("DejaVuSans.ttf") }, "\(fontFiles(tree))")
        #expect(tree.findings.contains { $0.description.contains("fonts folder fonts is a symbolic link (to \(outside.path))") },
                "\(tree.findings.map(\.description))")
    }
}
