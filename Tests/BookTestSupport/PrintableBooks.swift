import Foundation

/// The sample storybook and memoir as Lulu takes them: the storybook on a trim Lulu prints
/// (8.5 × 11 in) with a picture on every page, each book repeated until it has Lulu's 32 pages at
/// least (the samples are shorter).
public enum PrintableBooks {
    /// Writes `storybook` or `memoir` with its pictures into `folder`; its book.json.
    public static func make(_ name: String, in folder: URL) throws -> URL {
        let source = Repository.samples.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source.appendingPathComponent("images"), to: folder.appendingPathComponent("images"))
        guard var book = try JSONSerialization.jsonObject(with: Data(contentsOf: source.appendingPathComponent("book.json"))) as? [String: Any],
              let pages = book["pages"] as? [[String: Any]] else { throw ToolError("samples/\(name)/book.json is not a book") }
        var repeats = 2
        if name == "storybook" {
            var format = book["format"] as? [String: Any] ?? [:]
            format["trim"] = "8.5x11"
            book["format"] = format
            repeats = 3
        }
        book["pages"] = (0..<repeats).flatMap { r in
            pages.map { page -> [String: Any] in
                var p = page
                if let id = p["id"] as? String { p["id"] = "\(id)-\(r)" }
                // The sample leaves one picture out on purpose; a printed book has them all.
                if p["type"] as? String == "illustration", p["image"] == nil { p["image"] = "images/p09-light.jpg" }
                return p
            }
        }
        let url = folder.appendingPathComponent("book.json")
        try JSONSerialization.data(withJSONObject: book, options: [.prettyPrinted, .sortedKeys]).write(to: url)
        return url
    }
}
