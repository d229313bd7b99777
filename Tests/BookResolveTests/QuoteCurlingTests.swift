import Testing
import BookModel
import BookResolve
import BookTestSupport

/// Typewriter quotes become the book language's quotation marks and apostrophes; marks already
/// curled, and every other character, stay as written.
@Suite struct QuoteCurlingTests {
    @Test(arguments: [
        (#"She said "don't go" and left."#, "She said “don’t go” and left."),
        (#""Tell me 'why' again," he asked."#, "“Tell me ‘why’ again,” he asked."),
        ("Back in the '90s, and in '68.", "Back in the ’90s, and in ’68."),
        ("the dogs' bowls were empty", "the dogs’ bowls were empty"),
        (#"("quoted") and "end.""#, "(“quoted”) and “end.”"),
        ("Already “curled” and ‘single’ — it's fine", "Already “curled” and ‘single’ — it’s fine"),
        ("A line \"that goes\non\" after a break", "A line “that goes\non” after a break"),
        ("No quotes at all.", "No quotes at all."),
    ])
    func english(_ text: String, _ expected: String) {
        #expect(QuoteMarks(language: "en-US").curled(text) == expected)
    }

    @Test func frenchSetsGuillemetsWithNarrowNoBreakSpaces() {
        let french = QuoteMarks(language: "fr-FR")
        #expect(french.curled(#"Il a dit "bonjour" puis l'a répété."#)
                == "Il a dit «\u{202F}bonjour\u{202F}» puis l’a répété.")
        // Typed with spaces inside the marks: they become the narrow no-break space, not a second one.
        #expect(french.curled(#"Elle répond : " Non, jamais ". Fin."#)
                == "Elle répond : «\u{202F}Non, jamais\u{202F}». Fin.")
        #expect(french.curled("« Déjà » comme il faut") == "« Déjà » comme il faut")
    }

    @Test func germanOpensLowAndClosesHigh() {
        let german = QuoteMarks(language: "de-DE")
        #expect(german.curled(#"Er sagte: "Komm 'bitte' mit", und ging's an."#) == "Er sagte: „Komm ‚bitte‘ mit“, und ging’s an.")
        #expect(QuoteMarks(language: "de-CH").curled(#""Grüezi""#) == "«Grüezi»")
    }

    @Test(arguments: [("en", QuoteMarks.english), ("en-GB", .english), ("fr", .french), ("fr_CA", .french),
                      ("de-AT", .german), ("xx-YY", .english), ("", .english)])
    func marksByLanguage(_ tag: String, _ marks: QuoteMarks) {
        #expect(QuoteMarks(language: tag) == marks)
    }

    @Test func hebrewGereshAndGershayimStayAsTyped() {
        #expect(QuoteMarks(language: "he").curled(#"צה"ל ור' יוסי, "שלום""#) == "צה\"ל ור' יוסי, “שלום”")
    }

    /// With no space beside it, a mark between two words is told by pairing: it opens when no
    /// quotation is open, and closes the one that is.
    @Test func marksBetweenWordsPairUp() {
        #expect(QuoteMarks(language: "ja").curled(#"祖母は"昔はね"と言った。"#) == "祖母は「昔はね」と言った。")
        #expect(QuoteMarks(language: "zh-CN").curled(#"她说"你好"然后走了。"#) == "她说“你好”然后走了。")
        #expect(QuoteMarks(language: "de").curled(#"Er sagte:"Ja" und ging."#) == "Er sagte:„Ja“ und ging.")
        #expect(QuoteMarks.english.curled(#"He said:"yes"."#) == "He said:“yes”.")
        // A closing mark after a word and before a space stays a closing mark.
        #expect(QuoteMarks.english.curled(#"She is 5'10" tall."#) == "She is 5’10” tall.")
    }

    @Test func aBlankLineEndsAnOpenQuotation() {
        // A quotation that runs on into the next paragraph opens that paragraph again.
        #expect(QuoteMarks.english.curled("\"One\n\n\"Two\"") == "“One\n\n“Two”")
    }

    @Test func theBookIsCurledAsItsLanguageSaysUnlessTheThemeSaysNo() throws {
        var book = Book(kind: .memoir, title: #"The "Old" House"#, language: "de", pages: [
            Page(ChapterPage(title: #"Chapter "One""#, text: #"Sie rief: "Komm!""#)),
            Page(TextPage(text: #"It's "here"."#)),
        ])
        let resolved = try TestBooks.document(book).resolve()
        #expect(resolved.book.title == "The „Old“ House")
        guard case .chapter(let chapter) = resolved.pages[0].page.content, case .text(let text) = resolved.pages[1].page.content
        else { Issue.record("pages changed type"); return }
        #expect(chapter.title == "Chapter „One“" && chapter.text == "Sie rief: „Komm!“")
        #expect(text.text == "It’s „here“.")

        book.tokens = .object(["typography": .object(["smartQuotes": .bool(false)])])
        let plain = try TestBooks.document(book).resolve()
        #expect(plain.book.title == #"The "Old" House"#)
        #expect(plain.pages.map(\.page) == book.pages)
    }
}
