import Foundation
import BookBase
import BookModel

extension BookDocument {
    /// Writes the book as bookrender's own `book.json` (an app's file converted), once it passes
    /// the checks `validate` makes (a book `export` would refuse is not written). With
    /// `extractImages`, inline pictures become files in `images/` beside it; a picture file that
    /// already holds other bytes is the user's, and stops the write before anything is written.
    /// Returns the files written, the book last. `report` is where the caller will write its
    /// result: checked as an output here, never written.
    @discardableResult
    public func writeBookJSON(to url: URL, extractImages: Bool = false, replace: Bool = false,
                              report: URL? = nil) throws(BookRenderError) -> [URL] {
        var paths = OutputPaths()
        if let file { paths.input(URL(fileURLWithPath: file), as: "the book read") }
        paths.output(url, as: "the book.json", kind: .json)
        let extraction = extractImages ? BookExporter.extractingInlineImages(of: book) : nil
        for image in extraction?.images ?? [] {
            paths.output(url.deletingLastPathComponent().appendingPathComponent(image.path), as: "an extracted picture", kind: .any)
        }
        if let report { paths.output(report, as: "the report", kind: .json) }
        try paths.verify(replacingReadOnly: replace)
        if FileManager.default.fileExists(atPath: url.path) && !replace {
            throw BookRenderError(.unwritableOutput, "\(url.path) exists; pass --force to replace it")
        }
        // Checked as `export` checks it (pictures decoded, texts and sizes within the limits), so
        // a book written here is one export takes.
        _ = try validate()
        return try BookRenderError.wrap {
            var book = self.book
            var written: [URL] = []
            if let extraction {
                written = try Self.writeImages(extraction.images, beside: url)
                book = extraction.book
            }
            try AtomicOutput.write(try BookExporter.encode(book), to: url)
            return written + [url]
        }
    }

    private static func writeImages(_ images: [BookExporter.ExtractedImage], beside book: URL) throws -> [URL] {
        let folder = book.deletingLastPathComponent()
        for image in images {
            let url = folder.appendingPathComponent(image.path)
            if let existing = FileManager.default.contents(atPath: url.path), existing != image.data {
                throw OutputError("\(url.path) exists with other content; import into an empty folder or move it away")
            }
        }
        var written: [URL] = []
        for image in images {
            let url = folder.appendingPathComponent(image.path)
            guard !FileManager.default.fileExists(atPath: url.path) else { continue }
            try AtomicOutput.write(image.data, to: url)
            written.append(url)
        }
        return written
    }
}
