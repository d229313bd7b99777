import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// `Examples/book-export` depends on the BookRenderKit product by path, as another program would:
/// building it proves the product can be imported, and running it that it exports a book.
@Suite struct LibraryConsumerTests {
    @Test func aPackageThatDependsOnTheLibraryBuildsAndExportsASample() throws {
        let package = Repository.root.appendingPathComponent("Examples/book-export")
        // Its own build folder, kept between runs like .build: a second run only relinks.
        let scratch = Repository.root.appendingPathComponent(".build-example")
        // Its program alone: without --product SwiftPM also builds targets the program does not use,
        // the render service's HTTP server and its dependencies among them.
        let arguments = ["build", "--package-path", package.path, "--scratch-path", scratch.path, "--product", "book-export"]
        var build = try run("swift", arguments)
        if build.status != 0 {
            // SwiftPM does not notice a source file removed from a path dependency since the last
            // build of the example; a clean build settles that case.
            try? FileManager.default.removeItem(at: scratch)
            build = try run("swift", arguments)
        }
        try #require(build.status == 0, "the example package does not build:\n\(build.stdout)\n\(build.stderr)")

        let out = try temporaryDirectory("consumer")
        defer { try? FileManager.default.removeItem(at: out) }
        let book = Repository.samples.appendingPathComponent("storybook/book.json")
        let r = try run(scratch.appendingPathComponent("debug/book-export").path, [book.path, out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let pdf = out.appendingPathComponent("book.pdf")
        let info = try run("pdfinfo", [pdf.path])
        let expected = try TestBooks.open(book).layout().pages.count
        #expect(info.stdout.contains("Pages:") && info.stdout.contains(" \(expected)\n"), "\(info.stdout)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("pages").path)
        #expect(pages.filter { $0.hasSuffix(".png") }.count == expected)
        #expect(r.stdout.contains("\"pages\" : \(expected)"), "\(r.stdout)")
    }
}
