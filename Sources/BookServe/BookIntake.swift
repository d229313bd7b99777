import Foundation
import BookBase
import BookRenderKit

/// Turns a request body, spooled to a file in the job's folder, into a book in that folder.
///
/// Three forms are taken:
/// - `application/zip`: a zip of a book folder (book.json at its top, or in its one top folder);
/// - JSON: bookrender's book.json, whose image fields may hold `data:image/…;base64,…` URIs, which
///   are written out as files beside it; or an app's own saved file (MemoirAI, Roger,
///   InfiniteStories), which carries its pictures inside;
/// - JSON `{"book": …, "options": {…}}`: either of the above with the job's options beside it.
///
/// JSON is read a block at a time (`JSONBodyScanner`), never parsed whole into memory: its texts
/// are held to the service's limits as it is read, and its pictures are decoded straight to files.
struct BookIntake {
    var zip: ZipIntake
    var limits: InputLimits

    struct Received {
        var book: URL
        var options: ServeJobOptions?
        /// An app's own file rather than a book.json.
        var isAppFile = false
    }

    /// The envelope's options are a handful of fields; more is no options object.
    static let maxOptionsBytes = 64 * 1024

    func receive(_ body: URL, contentType: String?, into folder: URL) throws(APIError) -> Received {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw APIError(500, "storage", "cannot make the job's folder")
        }
        if type == "application/zip" || type == "application/x-zip-compressed" {
            try zip.unpack(body, into: folder)
            unlink(body.path)
            return Received(book: try bookFile(in: folder), options: nil)
        }
        guard type.isEmpty || type == "application/json" || type.hasSuffix("+json") else {
            throw APIError(415, "unsupportedType", "Content-Type \(ClientText.clipped(type)) is not taken; send application/json (book.json or an app's file) or application/zip (a book folder)")
        }
        let shape = try JSONBodyScanner.survey(body)
        guard shape.kind == .object else {
            throw APIError(400, "invalidJSON", "the body is \(shape.kind.described), not a JSON object; send book.json, an app's saved file, {\"book\": …, \"options\": {…}}, or a zip with Content-Type: application/zip")
        }
        defer { unlink(body.path) }
        if shape.member("schema") == nil, shape.member("book") != nil || shape.member("options") != nil {
            return try envelope(shape, body, into: folder)
        }
        var strings = StringTally()
        for member in shape.members { strings.add(member.strings) }
        if shape.member("schema") != nil {
            try checkTexts(strings)
            let file = folder.appendingPathComponent("book.json")
            if strings.dataURIs == 0 {
                try move(body, to: file)
            } else {
                try JSONBodyScanner.rewrite(body, value: shape.start, into: file, pictures: InlinePictures(folder: folder))
            }
            return Received(book: file, options: nil)
        }
        // An app's file: the library tells which app by its keys when the book is opened.
        try checkAppTexts(strings)
        let file = folder.appendingPathComponent("story.json")
        try move(body, to: file)
        return Received(book: file, options: nil, isAppFile: true)
    }

    private func envelope(_ shape: JSONBodyShape, _ body: URL, into folder: URL) throws(APIError) -> Received {
        let fields = ["book", "options"]
        for member in shape.members where !fields.contains(member.key) {
            var message = "$.\(ClientText.clipped(member.key)) is not a field of the envelope {\"book\": …, \"options\": {…}}"
            if let near = Spelling.nearest(to: member.key, among: fields) { message += "; did you mean \(near)?" }
            throw APIError(400, "unknownField", message)
        }
        for field in fields where shape.members.filter({ $0.key == field }).count > 1 {
            throw APIError(400, "invalidJSON", "$.\(field) is given twice in the envelope; give it once")
        }
        guard let book = shape.member("book") else {
            throw APIError(400, "noBook", "the envelope has options but no book; send {\"book\": BOOK, \"options\": {…}}")
        }
        guard book.kind == .object else {
            throw APIError(400, "invalidJSON", "$.book is \(book.kind.described); it holds the book (book.json or an app's file) as a JSON object")
        }
        var options: ServeJobOptions?
        if let o = shape.member("options") {
            // null is refused like any other non-object: an app that meant options and sent null
            // (a serializer's unset value) hears so instead of getting a plain book.
            guard o.kind == .object else {
                throw APIError(400, "invalidOption", "$.options is \(o.kind.described); it is an object of job options, such as {\"theme\": \"memoir\"}, or left out for none")
            }
            guard o.end - o.start <= Self.maxOptionsBytes else {
                throw APIError(400, "invalidOption", "$.options is larger than \(Self.maxOptionsBytes / 1024) KiB; it holds a handful of job options")
            }
            options = try ServeJobOptions.decode(try bytes(of: body, o.start..<o.end), at: "$.options")
        }
        if book.keys.contains("schema") {
            try checkTexts(book.strings)
            let file = folder.appendingPathComponent("book.json")
            try JSONBodyScanner.rewrite(body, value: book.start, into: file, pictures: InlinePictures(folder: folder))
            return Received(book: file, options: options)
        }
        try checkAppTexts(book.strings)
        let file = folder.appendingPathComponent("story.json")
        try JSONBodyScanner.rewrite(body, value: book.start, into: file, pictures: nil)
        return Received(book: file, options: options, isAppFile: true)
    }

    /// A book.json's strings are its texts, besides its data: URIs: held to the export's limits
    /// before the book is read whole.
    private func checkTexts(_ strings: StringTally) throws(APIError) {
        if strings.longestText > limits.maxTextLength {
            throw APIError(413, "textTooLong", "\(strings.longestTextPath) holds \(InputLimits.grouped(strings.longestText)) characters; the service takes texts of at most \(InputLimits.grouped(limits.maxTextLength)) (its --max-text-length)")
        }
        if strings.textCharacters > limits.maxBookTextLength {
            throw APIError(413, "textTooLong", "the book's texts hold \(InputLimits.grouped(strings.textCharacters)) characters together; the service takes books of at most \(InputLimits.grouped(limits.maxBookTextLength)) (its --max-book-text-length)")
        }
    }

    /// An app's file carries its pictures as bare base64 strings: only its other strings are texts.
    private func checkAppTexts(_ strings: StringTally) throws(APIError) {
        if strings.longestNonBase64 > limits.maxTextLength {
            throw APIError(413, "textTooLong", "\(strings.longestNonBase64Path) holds \(InputLimits.grouped(strings.longestNonBase64)) characters; the service takes texts of at most \(InputLimits.grouped(limits.maxTextLength)) (its --max-text-length)")
        }
    }

    private func bytes(of file: URL, _ range: Range<Int>) throws(APIError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw APIError(500, "storage", "cannot read the request back from the job's folder")
        }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            return try handle.read(upToCount: range.count) ?? Data()
        } catch {
            throw APIError(500, "storage", "cannot read the request back from the job's folder")
        }
    }

    private func move(_ body: URL, to file: URL) throws(APIError) {
        guard rename(body.path, file.path) == 0 else { throw APIError(500, "storage", "cannot store the book in the job's folder") }
    }

    private func bookFile(in folder: URL) throws(APIError) -> URL {
        let top = folder.appendingPathComponent("book.json")
        if FileManager.default.fileExists(atPath: top.path) { return top }
        let items = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        let folders = items.filter { $0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix("__MACOSX") }
        if folders.count == 1 {
            let inner = folders[0].appendingPathComponent("book.json")
            if FileManager.default.fileExists(atPath: inner.path) { return inner }
        }
        throw APIError(400, "noBook", "the zip has no book.json at its top or in its one top folder; zip the book's folder (book.json beside images/)")
    }
}
