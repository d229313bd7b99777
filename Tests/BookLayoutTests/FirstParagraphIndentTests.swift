import Testing
import Foundation
import BookLayout
import BookTestSupport
import BookRenderKit

/// The first paragraph under a chapter title starts flush; the paragraphs after it keep the
/// theme's indent. An indent marks where one paragraph follows another, and the first follows none.
@Suite struct FirstParagraphIndentTests {
    static let text = [sampleEnglish, sampleEnglish, "A short last one."].joined(separator: "\n\n")

    @Test(arguments: [LineBreaking.optimal, .firstFit], [TextAlignment.justify, .start])
    func aFlushFirstParagraphAndIndentedOthers(breaking: LineBreaking, alignment: TextAlignment) throws {
        var style = bodyStyle
        style.firstLineIndent = 14
        style.indentsFirstParagraph = false
        let typesetter = try makeTypesetter()
        let layout = typesetter.layout(Self.text, style: style, width: 200, alignment: alignment, hyphenate: true,
                                       lineBreaking: breaking)
        let starts = layout.lines.filter { $0.indexInParagraph == 0 }
        #expect(starts.count == 3)
        #expect(abs(starts[0].x) < 0.01, "the first paragraph starts flush")
        for line in starts.dropFirst() { #expect(abs(line.x - 14) < 0.01, "\(line.text)") }
        for line in layout.lines where line.indexInParagraph > 0 { #expect(abs(line.x) < 0.01) }
        // Its text and its other paragraphs are the same as with every paragraph indented.
        style.indentsFirstParagraph = true
        let indented = typesetter.layout(Self.text, style: style, width: 200, alignment: alignment, hyphenate: true,
                                         lineBreaking: breaking)
        #expect(indented.lines.filter { $0.indexInParagraph == 0 }.allSatisfy { abs($0.x - 14) < 0.01 })
        #expect(indented.lines.filter { $0.paragraph > 0 }.map(\.text) == layout.lines.filter { $0.paragraph > 0 }.map(\.text))
        #expect(layout.text.filter { $0 != "\u{00AD}" } == indented.text.filter { $0 != "\u{00AD}" })
        // A justified line is as wide as the column, the first paragraph's first line included.
        if alignment == .justify {
            for line in layout.lines where line.indexInParagraph + 1 < line.paragraphLineCount {
                #expect(abs(line.x + line.width - 200) < 0.05, "\(line.text)")
            }
        }
    }

    func golden(_ path: String) -> URL { GoldenCase.root.appendingPathComponent(path).appendingPathComponent("book.json") }

    /// A chapter's text sunk under its title, and one after a title page of its own.
    @Test(arguments: ["chapters/sink-memoir", "chapters/title-page-recto"])
    func aChapterTextStartsFlush(book: String) throws {
        let tree = try TestBooks.open(golden(book)).layout()
        let box = try #require(tree.pages.flatMap(\.textBoxes).first { $0.text.contains("The kitchen on Porter Street") })
        let lines = box.lines.map { box.layout.lines[$0] }
        let starts = lines.filter { $0.indexInParagraph == 0 }
        #expect(starts.count >= 2)
        #expect(starts.first.map { abs($0.x) < 0.01 } == true, "\(starts.first?.text ?? "")")
        // The memoir theme indents by 1.2 em of the body size.
        for line in starts.dropFirst() { #expect(line.x > 5, "\(line.text)") }
    }
}
