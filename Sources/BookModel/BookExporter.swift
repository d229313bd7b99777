import Foundation

/// Writes a book as book.json (the current schema), e.g. for `bookrender import`.
public enum BookExporter {
    /// Pretty-printed with sorted keys, so re-exporting an unchanged book gives identical bytes and
    /// diffs between versions stay readable.
    public static func encode(_ book: Book) throws -> Data {
        var book = book
        book.schema = Book.currentSchema
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(book)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// An inline image taken out of a book to be written beside it.
    public struct ExtractedImage: Sendable, Equatable {
        /// Relative to the book's folder, as the returned book refers to it.
        public var path: String
        public var data: Data
    }

    /// The book with every inline image replaced by a path under `folder` (e.g. "images"), and the
    /// images to write there. Apps embed their pictures; a book.json that points at files is small
    /// enough to read and edit, and its images can be swapped by hand. Identical images share one file.
    public static func extractingInlineImages(of book: Book, into folder: String = "images") -> (book: Book, images: [ExtractedImage]) {
        var book = book
        var images: [ExtractedImage] = []
        var pathByContent: [Data: String] = [:]

        func extract(_ ref: ImageRef?, name: String) -> ImageRef? {
            guard case .inline(let data)? = ref else { return ref }
            if let existing = pathByContent[data] { return .path(existing) }
            let path = "\(folder)/\(name).\(fileExtension(of: data))"
            pathByContent[data] = path
            images.append(ExtractedImage(path: path, data: data))
            return .path(path)
        }

        if book.cover != nil { book.cover!.photo = extract(book.cover!.photo, name: "cover") }
        if book.characters?.main != nil {
            book.characters!.main!.image = extract(book.characters!.main!.image, name: "main-character")
        }
        if book.matter != nil {
            book.matter!.authorPhoto = extract(book.matter!.authorPhoto, name: "author")
            book.matter!.publisherLogo = extract(book.matter!.publisherLogo, name: "publisher-logo")
        }
        let width = String(book.pages.count).count
        for i in book.pages.indices {
            let number = String(i + 1)
            let padded = String(repeating: "0", count: max(0, width - number.count)) + number
            let image = extract(book.pages[i].picture?.image, name: "page-\(padded)")
            book.pages[i].picture?.image = image
        }
        return (book, images)
    }

    /// From the bytes, since apps store pictures without a name.
    static func fileExtension(of data: Data) -> String {
        let signatures: [([UInt8], String)] = [
            ([0xFF, 0xD8, 0xFF], "jpg"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "png"),
            ([0x47, 0x49, 0x46, 0x38], "gif"),
        ]
        for (magic, ext) in signatures where data.starts(with: magic) { return ext }
        if data.count >= 12, data.prefix(4) == Data("RIFF".utf8), data.dropFirst(8).prefix(4) == Data("WEBP".utf8) { return "webp" }
        if data.count >= 12, data.dropFirst(4).prefix(4) == Data("ftyp".utf8) { return "heic" }
        return "bin"
    }
}
