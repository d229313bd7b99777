import Foundation
import Testing
@testable import BookModel

@Suite("Validation after decoding")
struct ValidationTests {
    @Test func everyProblemIsListedWithItsPathInFileOrder() throws {
        let error = try #require(Fixtures.error("bad/invalid-pages.json"))
        #expect(error.kind == .validation)
        let lines = error.description.split(separator: "\n").map(String.init)
        let expected = [
            "$.title: the title is empty; a book needs a title",
            "$.cover.accent: \"brown\" is not a colour; write it as #RRGGBB (\"#7C5C3A\")",
            "$.pages[0]: an illustration page needs an \"image\", a \"scene\" to illustrate, or \"text\"",
            "$.pages[1].text: a text page needs non-empty \"text\"",
            "$.pages[2].image: a photo page needs an \"image\"",
            "$.pages[3].title: a chapter page needs a non-empty \"title\"",
            "$.pages[4]: a spread needs an \"image\" or a \"scene\" to illustrate",
            "$.pages[5].url: \"not a url\" is not a URL",
        ]
        #expect(lines.count == expected.count, "\(error)")
        for (line, want) in zip(lines, expected) {
            #expect(line.contains("invalid-pages.json: " + want), "\(line)")
        }
        // A missing field is located at the object that lacks it.
        #expect(lines[4].hasSuffix("(line 9, column 5)"))
    }

    /// Blank is whitespace of any kind, line breaks and no-break spaces included; one other
    /// character anywhere, even at the very end of a long text, makes it not blank.
    @Test func blankTextIsAnyWhitespaceOnly() {
        func textPageErrors(_ text: String) -> Int {
            let book = Book(kind: .memoir, title: "T", pages: [Page(TextPage(text: text))])
            return BookValidator.validate(book).errors.count
        }
        #expect(textPageErrors(" \t\n\r\u{00A0}\u{2003}\u{2028}") == 1)
        #expect(textPageErrors("") == 1)
        #expect(textPageErrors(String(repeating: " \n", count: 50_000) + "x") == 0)
        #expect(textPageErrors("é") == 0)
    }

    @Test func imagePathsMustStayInTheBooksFolder() throws {
        let error = try #require(Fixtures.error("bad/path-escape.json"))
        #expect(error.kind == .validation)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(error)")
        guard lines.count == 3 else { return }
        #expect(lines[0].contains("path-escape.json: $.cover.photo: \"/etc/passwd\" is an absolute path; give the path relative to the book's folder"))
        #expect(lines[1].contains("$.characters.main.image: \"images/../../emma.png\" leaves the book's folder (\"..\")"))
        #expect(lines[2].contains("$.pages[0].image: \"../secret.jpg\" leaves the book's folder"))
        #expect(lines[2].hasSuffix("(line 8, column 33)"))
    }

    @Test("image path rule", arguments: [
        ("images/p1.jpg", true), ("p1.png", true), ("./images/p1.png", true), ("a..b/c.png", true),
        ("../p.png", false), ("a/../../p.png", false), ("a/..", false), ("/abs.png", false), ("~/p.png", false),
        ("C:\\pics\\p.png", false), ("C:/pics/p.png", false), ("images\\p.png", false),
        ("https://example.com/p.png", false), ("file:///tmp/p.png", false), ("", false), ("  ", false),
    ])
    func imagePathRule(path: String, accepted: Bool) {
        #expect((ImagePath.problem(with: path) == nil) == accepted)
    }

    @Test("colours, languages, dates, urls", arguments: [
        (##""cover": {"accent": "#7c5c3a"},"##, true),
        (##""cover": {"accent": "#7C5C3"},"##, false),
        (#""cover": {"accent": "7C5C3A"},"#, false),
        (#""language": "pt-BR","#, true),
        (#""language": "english (US)","#, false),
        (#""created": "2024-05-01","#, true),
        (#""created": "2024-05-01T12:00:00.123+02:00","#, true),
        (#""created": "2024-02-30","#, false),
        (#""created": "May 1st","#, false),
        (#""theme": "my-theme.v2","#, true),
        (#""theme": "../../etc/x","#, false),
        (#""tokens": {"palette": {}},"#, true),
        (#""tokens": "dark","#, false),
        (#""format": {"trim": {"width": 0, "height": "9in"}},"#, false),
        (#""format": {"trim": ""},"#, false),
    ])
    func fieldRules(extra: String, valid: Bool) throws {
        let json = bookJSON(pages: #"{"type": "text", "text": "x"}"#, extra: " " + extra)
        if valid {
            #expect(throws: Never.self) { try loadText(json) }
        } else {
            let error = try #require(loadError { try loadText(json) })
            #expect(error.kind == .validation, "\(error)")
        }
    }

    @Test("qr urls", arguments: [
        ("https://example.com/s?id=1", true), ("mailto:grandma@example.com", true), ("tel:+15551234", true),
        ("example.com/x", false), ("https://exa mple.com", false), ("://x", false), ("https:", false),
    ])
    func qrURL(url: String, valid: Bool) {
        let page = Page(QRPage(url: url))
        let result = BookValidator.validate(Book(kind: .storybook, title: "T", pages: [page]))
        #expect(result.isValid == valid, "\(result.errors)")
    }

    @Test func pageIdsMustBeUnique() throws {
        let pages = #"{"type": "text", "id": "a", "text": "x"}, {"type": "text", "id": "a", "text": "y"}"#
        let error = try #require(loadError { try loadText(bookJSON(pages: pages)) })
        #expect(error.description.contains("$.pages[1].id: id \"a\" is already used by $.pages[0]; page ids must be unique"))
    }

    @Test func aBookNeedsPages() throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: "")) })
        #expect(error.description.contains("$.pages: a book needs at least one page"))
    }

    @Test func theValidatorIsUsableOnAModelBuiltInCode() {
        let book = Book(kind: .memoir, title: "", pages: [Page(PhotoPage(image: .path("/x.jpg")))])
        let result = BookValidator.validate(book)
        #expect(!result.isValid)
        #expect(result.errors.map(\.path) == ["$.title", "$.pages[0].image"])
        #expect(result.errors.allSatisfy { $0.line == nil })
    }
}

@Suite("Errors carry the warnings that explain them")
struct ErrorWarningTests {
    @Test func aMisspeltFieldIsShownWithTheErrorItCauses() throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: #"{"type": "photo", "imgae": "a.jpg"}"#)) })
        #expect(error.kind == .validation)
        #expect(error.issues.count == 1)
        #expect(error.warnings.count == 1)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("$.pages[0].image: a photo page needs an \"image\"") == true)
        #expect(lines.last?.contains("$.pages[0].imgae: unknown field, ignored; did you mean \"image\"?") == true)
    }

    @Test func aMisspeltRequiredFieldToo() throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: #"{"typ": "text", "text": "x"}"#)) })
        #expect(error.kind == .schema)
        #expect(error.description.contains("$.pages[0]: required field \"type\" is missing"))
        #expect(error.warnings.first?.contains("$.pages[0].typ: unknown field, ignored; did you mean \"type\"?") == true)
    }
}
