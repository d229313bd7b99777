import Testing
import Foundation
import BookModel
import BookTestSupport
import BookRenderKit

/// A picture of the book swapped, over and over, between the real file and a link to a file
/// outside the book's folder while the book exports: each export either embeds the real picture
/// or refuses it by name, and no PDF ever holds a byte of the outside file. The outside file has
/// the real one's size, so only the file's identity tells them apart.
@Suite struct SwapRaceTests {
    static let runs = 100

    @Test func aPictureSwappedForALinkNeverBringsTheOutsideFileIntoThePDF() throws {
        let root = try temporaryDirectory("swap-race")
        defer { try? FileManager.default.removeItem(at: root) }
        let book = root.appendingPathComponent("book"), outside = root.appendingPathComponent("outside")
        let images = book.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let real = try TestImages.gradientJPEG(width: 320, height: 240)
        let marker = "OUTSIDE-THE-BOOK-\(UUID().uuidString)"
        let secret = try HostileFolders.outsideJPEG(sizedLike: real, marker: marker)
        let photo = images.appendingPathComponent("photo.jpg"), keep = images.appendingPathComponent(".keep.jpg")
        try real.write(to: photo)
        try FileManager.default.linkItem(at: photo, to: keep)
        try secret.write(to: outside.appendingPathComponent("secret.jpg"))
        let pages = (0..<3).map { #"{"type": "illustration", "image": "images/photo.jpg", "text": "Page \#($0)."}"# }
        let json = #"{"schema": 1, "kind": "storybook", "title": "Swapped", "cover": {"title": "Swapped", "photo": "images/photo.jpg"}, "pages": [\#(pages.joined(separator: ", "))]}"#
        let file = book.appendingPathComponent("book.json")
        try Data(json.utf8).write(to: file)

        let swapper = FileSwapper(photo, real: keep, outside: "../../outside/secret.jpg", linkDwell: 100, realDwell: 1500)
        swapper.start()
        var written = 0, refused = 0
        for run in 0..<Self.runs {
            let pdf = root.appendingPathComponent("out-\(run).pdf")
            do {
                let document = try TestBooks.open(file, workers: run % 2 == 0 ? 1 : 2)
                _ = try document.export(ExportOptions(pdf: pdf))
            } catch {
                refused += 1
                #expect("\(error)".contains("images/photo.jpg"), "run \(run): \(error)")
                continue
            }
            written += 1
            let bytes = try Data(contentsOf: pdf)
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "run \(run): the outside file is in the PDF")
            #expect(bytes.range(of: real.suffix(256)) != nil, "run \(run): the real picture is not in the PDF")
            try FileManager.default.removeItem(at: pdf)
        }
        swapper.stop()
        #expect(swapper.swaps > 0)
        #expect(written > 0, "every export was refused (\(refused)): nothing was checked")
    }
}
