import Testing
@testable import BookLayout

/// How a text's newlines become Pango's paragraphs (`Typesetter.normalizedParagraphs`).
@Suite struct ParagraphTextTests {
    @Test(arguments: [
        ("One.\n\nTwo.", "One.\nTwo."),
        ("One line\nand the next\n\nTwo.", "One line\u{2028}and the next\nTwo."),
        ("\n\n  \nLeading and trailing blanks\n \t\n\n", "Leading and trailing blanks"),
        ("A\n\n\n\nB\n\u{00A0}\u{3000}\nC", "A\nB\nC"),
        ("Windows\r\nlines\r\n\r\nand old Mac\rones", "Windows\u{2028}lines\nand old Mac\u{2028}ones"),
        ("Para\u{2029}graph separator", "Para\ngraph separator"),
        ("Émile — «ça va?»\nnaïve 😀\n\nЁлка", "Émile — «ça va?»\u{2028}naïve 😀\nЁлка"),
        ("", ""),
        ("\n \n", ""),
    ])
    func blankLinesSeparateParagraphsAndOtherNewlinesBreakLines(_ input: String, _ expected: String) {
        #expect(Typesetter.normalizedParagraphs(input) == expected)
    }
}
