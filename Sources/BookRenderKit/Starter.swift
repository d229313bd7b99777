import Foundation
import BookConfig
import BookModel

/// A first book to edit: `book.json` with its schema named for editors, and an empty `images/`
/// folder for the pictures. It validates and exports as it is, the pictures drawn as placeholders
/// until they are added.
public enum Starter {
    /// Writes the starter book of `kind` into `folder` (made when missing) and returns the files
    /// and folders made. Refuses a folder that already holds a `book.json`.
    /// `theme`: a theme of `templates/` the book names (the kind's own when nil); an unknown one is
    /// refused with the themes there, before anything is written.
    @discardableResult
    public static func write(kind: BookKind, into folder: URL, theme: String? = nil,
                             settings: RenderSettings = RenderSettings()) throws(BookRenderError) -> [URL] {
        let book = folder.appendingPathComponent("book.json")
        let images = folder.appendingPathComponent("images")
        let schema = (try? settings.resources()).map { $0.root.appendingPathComponent("schema/book.schema.json") }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0.absoluteString : nil } ?? "urn:bookrender:schema:book:1"
        var text = (kind == .memoir ? memoir : storybook).replacingOccurrences(of: "SCHEMA", with: schema)
        if let theme {
            let templates = try BookRenderError.wrap { try settings.resources().templates }
            do { _ = try Theme.load(named: theme, from: templates) } catch {
                throw BookRenderError(.invalidOptions, "--theme: \(error)")
            }
            // A theme's name holds only letters, digits, '.', '_' and '-': nothing to escape.
            let kindLine = "\"kind\": \"\(kind.rawValue)\","
            text = text.replacingOccurrences(of: kindLine, with: kindLine + "\n  \"theme\": \"\(theme)\",")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BookRenderError(.unwritableOutput, "cannot make the folder \(folder.path): \(reason(error)); choose a writable place")
        }
        // Created exclusively, so a book.json that appears meanwhile is not replaced either.
        let fd = open(book.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST {
                throw BookRenderError(.unwritableOutput,
                    "\(book.path) exists; init never replaces a book: choose an empty folder, or edit that book")
            }
            throw BookRenderError(.unwritableOutput, "cannot write \(book.path): \(String(cString: strerror(code)))")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        let closed = close(fd)
        guard written == bytes.count, closed == 0 else {
            unlink(book.path)
            throw BookRenderError(.unwritableOutput, "cannot write \(book.path): \(String(cString: strerror(errno)))")
        }
        do {
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        } catch {
            throw BookRenderError(.unwritableOutput, "cannot make \(images.path): \(reason(error))")
        }
        return [book, images]
    }

    private static func reason(_ error: any Error) -> String {
        ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
    }

    static let storybook = """
    {
      "$schema": "SCHEMA",
      "schema": 1,
      "kind": "storybook",
      "title": "My First Story",
      "author": "Your Name",
      "language": "en-US",
      "format": { "trim": "8.25x11" },
      "cover": { "title": "My First Story", "accent": "#E0703A" },
      "characters": {
        "main": { "name": "Pip", "description": "a small red fox with a white-tipped tail" }
      },
      "pages": [
        {
          "type": "illustration",
          "text": "Pip lived at the edge of the wood.",
          "scene": "A small red fox in front of a den under an old oak, morning light"
        },
        {
          "type": "illustration",
          "text": "One night, Pip saw the moon and wanted to touch it.",
          "scene": "The fox on a hill looking up at a large full moon"
        },
        {
          "type": "text",
          "text": "Put your own pictures in images/ and name them on a page: \\"image\\": \\"images/p1.jpg\\".\\n\\nUntil then, each page shows a placeholder drawn from its scene."
        }
      ]
    }

    """

    static let memoir = """
    {
      "$schema": "SCHEMA",
      "schema": 1,
      "kind": "memoir",
      "title": "My Life So Far",
      "author": "Your Name",
      "language": "en-US",
      "format": { "trim": "6x9" },
      "cover": { "title": "My Life So Far", "accent": "#7C5C3A" },
      "pages": [
        { "type": "chapter", "title": "Where I Grew Up" },
        {
          "type": "text",
          "text": "Write the first memory here.\\n\\nA blank line starts a new paragraph."
        },
        {
          "type": "text",
          "text": "To add a photo, put it in images/ and add a page: { \\"type\\": \\"photo\\", \\"image\\": \\"images/house.jpg\\", \\"caption\\": \\"Our house\\" }."
        },
        { "type": "chapter", "title": "The Years After" },
        { "type": "text", "text": "And the next chapter of the story." }
      ]
    }

    """
}
