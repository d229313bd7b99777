import Foundation

/// A memoir of any length in real prose: the paragraphs of the sample memoir, drawn in a seeded
/// order into `chapters` chapters of `paragraphs` paragraphs each, set with `margins` on a 6 × 9 in
/// trim. Written as `book.json` in `folder`, whose path is returned.
public func writeLongMemoir(in folder: URL, chapters: Int, paragraphs: Int, margins: [String: String], seed: UInt64 = 11) throws -> URL {
    let sample = try JSONSerialization.jsonObject(with: Data(contentsOf: Repository.samples.appendingPathComponent("memoir/book.json"))) as! [String: Any]
    let texts = (sample["pages"] as! [[String: Any]]).compactMap { $0["type"] as? String == "text" ? $0["text"] as? String : nil }
    let pool = texts.flatMap { $0.components(separatedBy: "\n\n") }
    var state = seed
    func next() -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int(state >> 33)
    }
    var pages: [[String: Any]] = []
    for c in 1...chapters {
        pages.append(["type": "chapter", "id": "ch\(c)", "title": "Chapter \(c)"])
        pages.append(["type": "text", "id": "ch\(c)-text",
                      "text": (0..<paragraphs).map { _ in pool[next() % pool.count] }.joined(separator: "\n\n")])
    }
    let book: [String: Any] = ["schema": 1, "kind": "memoir", "title": "The Long Table", "author": "Ruth Hale", "language": "en-US",
                               "theme": "memoir", "format": ["trim": "6x9", "margins": margins], "pages": pages]
    let file = folder.appendingPathComponent("book.json")
    try JSONSerialization.data(withJSONObject: book, options: [.sortedKeys]).write(to: file)
    return file
}
