import Testing
@testable import BookLayout

/// Every line of a paragraph stands on the page's line pitch, whatever fonts its runs fall back
/// to: a CJK or emoji line must not push the lines after it down.
@Suite struct LinePitchTests {
    static let mixed = """
        The letter came on a Tuesday, folded twice, with a line in my grandmother's hand:
        日本語の文章と中文的句子が一行に入っています
        and under it the faces she always drew 😀 🐘 ❤️ 👩‍👩‍👧 at the end of a letter,
        then her name, and the date in the corner, as she wrote it every time she wrote.
        """

    @Test(arguments: [LineBreaking.optimal, .firstFit], [TextAlignment.justify, .start])
    func everyBaselineStepIsThePitch(breaking: LineBreaking, alignment: TextAlignment) throws {
        let layout = try makeTypesetter().layout(Self.mixed, style: bodyStyle, width: 260, alignment: alignment,
                                                 hyphenate: true, lineBreaking: breaking)
        let files = layout.fontFiles.map(fileName)
        #expect(files.contains("NotoSansCJK-Regular.ttc") && files.contains("NotoColorEmoji.ttf"), "\(files)")
        #expect(layout.lines.count >= 4)
        let pitch = bodyStyle.lineHeight * bodyStyle.size
        for (previous, line) in zip(layout.lines, layout.lines.dropFirst()) {
            #expect(abs(line.baseline - previous.baseline - pitch) < 0.001, "\(previous.text) → \(line.text)")
            #expect(abs(line.top - previous.bottom) < 0.001)
        }
        #expect(abs(layout.lines[0].baseline - layout.lines[0].top - (layout.lines[1].baseline - layout.lines[1].top)) < 0.001)
        #expect(abs(layout.height - pitch * Double(layout.lines.count)) < 0.001)
    }
}
