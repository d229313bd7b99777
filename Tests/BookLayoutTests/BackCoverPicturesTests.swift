import Testing
import Foundation
import BookModel
import BookConfig
import BookResolve
import BookLayout
@testable import BookRender
import BookTestSupport
import BookRenderKit

/// The pictures of a printed cover's back: the author's portrait beside the words about them, the
/// publisher's mark at the foot across from the barcode, both whole and clear of it.
@Suite struct BackCoverPicturesTests {
    static let bio = "Ada Whitlow taught school in Ohio for thirty-one years and lives on Linden Street with two cats."

    func book(photo: String? = "author.jpg", logo: String? = "logo.png", theme: String = "memoir", rightToLeft: Bool = false) -> Book {
        Book(kind: .memoir, title: "Salt and Lanterns", author: "Ada Whitlow", language: rightToLeft ? "he" : "en",
             theme: theme, format: BookFormat(trim: .preset("6x9")),
             cover: Cover(blurb: "A year of tides, storms and ships, told by the girl who kept the lamp on the point."),
             matter: BookMatter(publisher: "Porter Street Press", aboutTheAuthor: Self.bio,
                                authorPhoto: photo.map { .path($0) }, publisherLogo: logo.map { .path($0) }),
             pages: [Page(TextPage(text: "The tide came in."))])
    }

    func folder() throws -> URL {
        let dir = try temporaryDirectory("back-pictures")
        try TestImages.gradientJPEG(width: 300, height: 400).write(to: dir.appendingPathComponent("author.jpg"))
        try TestImages.convert(["-size", "600x200", "xc:#203040"], output: "out.png").write(to: dir.appendingPathComponent("logo.png"))
        return dir
    }

    func sheet(_ book: Book, in dir: URL, strict: Bool = false) throws -> (PageNode, CoverSpread.Info, ResolvedBook) {
        let resolved = try TestBooks.document(book, folder: dir, strict: strict, profile: "kdp").resolve()
        let (tree, info) = try CoverSpread.layout(resolved, interiorPages: 120, paper: "white", typesetter: try TestFonts.typesetter())
        return (try #require(tree.pages.first), info, resolved)
    }

    @Test(arguments: Theme.available(in: Repository.resources.templates))
    func thePortraitStandsBesideTheBioAndTheMarkAcrossFromTheBarcode(_ theme: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (page, info, resolved) = try sheet(book(theme: theme), in: dir)
        let w = resolved.trim.width
        let photo = try #require(page.images.first { $0.asset.origin.contains("author.jpg") }, "\(theme): no portrait")
        let logo = try #require(page.images.first { $0.asset.origin.contains("logo.png") }, "\(theme): no publisher's mark")
        let bio = try #require(page.textBoxes.first { $0.text.contains("Linden") }, "\(theme): \(page.textBoxes.map(\.text))")
        // Whole (no crop), on the back, clear of the barcode.
        for image in [photo, logo] {
            #expect(image.clip == image.frame, "\(theme): \(image.asset.origin) is cropped")
            #expect(image.frame.x >= 0 && image.frame.maxX <= w, "\(theme): \(image.asset.origin) leaves the back")
            #expect(!image.frame.intersects(info.barcode), "\(theme): \(image.asset.origin) over the barcode area")
        }
        let ratio = Double(photo.asset.info.orientedWidth) / Double(photo.asset.info.orientedHeight)
        #expect(abs(photo.frame.width / photo.frame.height - ratio) < 0.01, "\(theme): the portrait is distorted")
        // Beside the bio, at its top, and not over it.
        #expect(abs(photo.frame.y - bio.frame.y) < 1 && photo.frame.maxX <= bio.frame.x, "\(theme): \(photo.frame) beside \(bio.frame)")
        #expect(!photo.frame.intersects(bio.frame))
        // At the foot across from the barcode, its foot on the barcode's.
        #expect(abs(logo.frame.maxY - info.barcode.maxY) < 0.5 && logo.frame.maxX < info.barcode.x, "\(theme): \(logo.frame) vs \(info.barcode)")
        #expect(logo.frame.height <= 36.01 && logo.frame.width <= 108.01)
        for box in page.textBoxes where !box.turnedClockwise {
            #expect(!box.frame.intersects(logo.frame), "\(theme): \"\(box.text.prefix(30))\" over the mark")
        }
    }

    @Test func aPictureThatCannotBeFoundIsLeftOffWithAWarningOrRefusedUnderStrict() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (page, _, resolved) = try sheet(book(photo: "gone.jpg", logo: nil), in: dir)
        #expect(page.images.isEmpty)
        let warning = try #require(resolved.findings.first { $0.kind == .missingImage })
        #expect(warning.severity == .warning && warning.message.contains("$.matter.authorPhoto") && warning.message.contains("gone.jpg"))
        let strict = try TestBooks.document(book(photo: "gone.jpg", logo: nil), folder: dir, strict: true, profile: "kdp").resolve()
        #expect(strict.findings.contains { $0.kind == .missingImage && $0.severity == .error })
    }

    @Test func theFieldsAreCheckedAndTheirInlinePicturesWrittenToFiles() throws {
        let json = #"{"schema": 1, "kind": "memoir", "title": "T", "matter": {"publisherLogo": {"path": ""}, "authorPhoto": {"colour": 1}}, "pages": [{"type": "text", "text": "A."}]}"#
        let dir = try temporaryDirectory("back-pictures-check")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(json.utf8).write(to: dir.appendingPathComponent("book.json"))
        do {
            _ = try BookDocument.open(dir.appendingPathComponent("book.json"))
            Issue.record("a book with an empty logo path and an unknown photo field was taken")
        } catch {
            #expect("\(error)".contains("$.matter.publisherLogo") || "\(error)".contains("$.matter.authorPhoto"), "\(error)")
        }
        let png = try TestImages.convert(["-size", "8x8", "xc:#203040"], output: "out.png")
        var inline = book(photo: nil, logo: nil)
        inline.matter?.publisherLogo = .inline(png)
        let (extracted, images) = BookExporter.extractingInlineImages(of: inline)
        #expect(extracted.matter?.publisherLogo == .path("images/publisher-logo.png"))
        #expect(images.map(\.path) == ["images/publisher-logo.png"] && images.first?.data == png)
    }
}

