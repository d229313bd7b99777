import Testing
import Foundation
import BookModel
import BookLayout
import BookTestSupport
import BookRenderKit

/// The PDF's text, as poppler extracts it for search and copy, is the book's text: whole words
/// where the layout hyphenated them, emoji included, nothing a page only wears (a placeholder's
/// caption, a cover's medallion letter).
@Suite struct TextLayerTests {
    static let books: [String] = {
        let samples = Repository.samples
        var files = ["memoir/book.json", "storybook/book.json"]
        let apps = samples.appendingPathComponent("apps")
        for app in (try? FileManager.default.contentsOfDirectory(atPath: apps.path).sorted()) ?? [] {
            let folder = apps.appendingPathComponent(app)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? [] where file.hasSuffix(".json") {
                files.append("apps/\(app)/\(file)")
            }
        }
        return files
    }()

    /// The exported PDF's text, one string per page, and the laid-out pages it was drawn from.
    /// `firstFit`: lines broken one at a time, where every hyphenation point keeps its soft hyphen
    /// in the laid-out text, not only those that end a line.
    static func export(_ sample: String, firstFit: Bool = false) throws -> (pages: [String], tree: PageTree) {
        let dir = try temporaryDirectory("text-layer")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("book.pdf")
        var document = try TestBooks.open(Repository.samples.appendingPathComponent(sample))
        if firstFit {
            guard case .object(var tokens) = document.book.tokens ?? .object([:]) else { throw ToolError("\(sample): tokens not an object") }
            guard case .object(var typography) = tokens["typography"] ?? .object([:]) else { throw ToolError("\(sample): typography not an object") }
            typography["lineBreaking"] = .string("first-fit")
            tokens["typography"] = .object(typography)
            document.book.tokens = .object(tokens)
        }
        _ = try document.export(ExportOptions(pdf: pdf))
        // The same layout again (an export keeps no text it has drawn): what the pages say.
        let tree = try document.layout()
        let text = try run("pdftotext", ["-enc", "UTF-8", pdf.path, "-"]).stdout
        // pdftotext ends every page with a form feed.
        var pages = text.components(separatedBy: "\u{0C}")
        if pages.last?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == true { pages.removeLast() }
        return (pages, tree)
    }

    static func words(_ s: String) -> [Substring] { s.split(whereSeparator: \.isWhitespace) }

    static func isRightToLeft(_ c: Unicode.Scalar) -> Bool { (0x0590...0x08FF).contains(c.value) || (0xFB1D...0xFEFC).contains(c.value) }

    static func text(of box: TextBox) -> String {
        guard let first = box.layout.lines[box.lines].first, let last = box.layout.lines[box.lines].last else { return "" }
        let utf8 = Array(box.layout.text.utf8)
        return String(decoding: utf8[first.byteRange.lowerBound..<last.byteRange.upperBound], as: UTF8.self)
    }

    @Test(arguments: books, [false, true])
    func everyWordOfTheBookIsInItsPDFInOrder(_ sample: String, firstFit: Bool) throws {
        let (pages, tree) = try Self.export(sample, firstFit: firstFit)
        #expect(pages.count == tree.pages.count, "\(sample): \(pages.count) pages of text for \(tree.pages.count) pages")
        var checkedWords = 0
        for (page, extracted) in zip(tree.pages, pages) {
            let found = Self.words(extracted)
            for case .text(let box) in page.items where box.isBookText {
                // What the book says there: the text of the drawn lines, words broken across lines
                // whole, without the break hints layout added.
                var said = Self.text(of: box)
                // A word broken across pages keeps its hyphen where the page ends.
                if said.hasSuffix("\u{00AD}") { said += "-" }
                let expected = Self.words(said.replacingOccurrences(of: "\u{00AD}", with: ""))
                // poppler orders a line with right-to-left words by its own bidi rules and marks
                // them with embedding controls: the words of such a line need only be there.
                let mixedLineWords = Set(box.layout.lines[box.lines]
                    .filter { $0.text.unicodeScalars.contains(where: Self.isRightToLeft) }
                    .flatMap { Self.words($0.text.replacingOccurrences(of: "\u{00AD}", with: "")) })
                var at = found.startIndex
                for word in expected {
                    if word.unicodeScalars.contains(where: Self.isRightToLeft) {
                        let letters = String(String.UnicodeScalarView(word.unicodeScalars.filter(Self.isRightToLeft)))
                        #expect(extracted.contains(letters), "\(sample) page \(page.number): \"\(word)\" missing from\n\(extracted)")
                        continue
                    }
                    if mixedLineWords.contains(word), found[at...].firstIndex(of: word) == nil {
                        #expect(found.contains(word), "\(sample) page \(page.number): \"\(word)\" missing from\n\(extracted)")
                        continue
                    }
                    guard let hit = found[at...].firstIndex(of: word) else {
                        Issue.record("\(sample) page \(page.number): \"\(word)\" of \"\(box.text)\" not found in order in\n\(extracted)")
                        break
                    }
                    at = hit + 1
                    checkedWords += 1
                }
            }
            #expect(!extracted.contains("\u{00AD}"), "\(sample) page \(page.number): a soft hyphen in\n\(extracted)")
            #expect(!extracted.contains("Illustration to come"), "\(sample) page \(page.number): a placeholder's caption in\n\(extracted)")
        }
        #expect(checkedWords > 0)
    }

    /// The sample storybook's emoji are in its text, where its pages draw them.
    @Test func emojiAreInTheText() throws {
        let (pages, tree) = try Self.export("storybook/book.json")
        let emoji = tree.pages.flatMap { page in
            page.items.compactMap { if case .text(let box) = $0, box.isBookText { box.text } else { nil } }
                .joined().unicodeScalars.filter { $0.properties.isEmojiPresentation }
        }
        #expect(!emoji.isEmpty, "the sample storybook draws emoji")
        let extracted = pages.joined().unicodeScalars.filter { $0.properties.isEmojiPresentation }
        #expect(String(String.UnicodeScalarView(extracted)) == String(String.UnicodeScalarView(emoji)))
    }

    /// A reader searching the sample memoir for "butter" finds it wherever the book says it, ligature,
    /// hyphenation and line break notwithstanding.
    @Test(arguments: [false, true])
    func searchingTheMemoirForButterFindsEveryOccurrence(firstFit: Bool) throws {
        let (pages, _) = try Self.export("memoir/book.json", firstFit: firstFit)
        // The word is only ever in the book's prose, so its file counts the occurrences.
        let source = try String(contentsOf: Repository.samples.appendingPathComponent("memoir/book.json"), encoding: .utf8)
        func count(_ s: String) -> Int { s.lowercased().components(separatedBy: "butter").count - 1 }
        let inBook = count(source)
        #expect(inBook > 0)
        // pdftotext joins a line that ends in a hyphen to the next, as a search does.
        #expect(count(pages.joined()) == inBook)
    }
}
