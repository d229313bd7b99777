import Testing
import Foundation
import BookTestSupport
import BookRenderKit

/// The same limits through the library: a book built in memory is checked as a file is, and
/// `RenderSettings.limits` moves them.
@Suite struct InputLimitsLibraryTests {
    func document(_ text: String, limits: InputLimits = InputLimits()) -> BookDocument {
        TestBooks.document(Book(kind: .memoir, title: "In memory", pages: [Page(TextPage(text: text))]))
            .with { $0.limits = limits }
    }

    @Test func aControlCharacterInABookBuiltInMemoryIsAnInvalidBook() throws {
        #expect {
            try document("Bell \u{7} here.").validate()
        } throws: { error in
            guard let e = error as? BookRenderError else { return false }
            return e.exitCode == 65 && e.diagnostics.contains { $0.jsonPath == "$.pages[0].text" && $0.message.contains("U+0007") }
        }
    }

    @Test func theTextLimitsComeFromTheSettings() throws {
        let text = String(repeating: "a", count: 50)
        #expect(throws: Never.self) { try document(text).validate() }
        #expect {
            try document(text, limits: InputLimits(maxTextLength: 49)).layout()
        } throws: { error in
            (error as? BookRenderError)?.diagnostics.contains { $0.jsonPath == "$.pages[0].text" } == true
        }
        #expect {
            try document(text, limits: InputLimits(maxBookTextLength: 40)).layout()
        } throws: { error in
            (error as? BookRenderError)?.diagnostics.contains { $0.jsonPath == "$" } == true
        }
    }

    /// Pango breaks a run with no break opportunity anywhere and shapes the rest again for each
    /// line, in time that grows with the square of the run: such a run is refused at its place.
    @Test func aRunWithNoPlaceToBreakALineIsRefusedAtItsPlace() throws {
        let blob = "Look: " + String(repeating: "x", count: 5_000) + " and more."
        #expect {
            try document(blob).validate()
        } throws: { error in
            guard let e = error as? BookRenderError else { return false }
            return e.exitCode == 65 && e.diagnostics.contains {
                $0.jsonPath == "$.pages[0].text" && $0.message.contains("5,000 characters in a row from character 7")
            }
        }
        #expect(throws: Never.self) { try document(blob, limits: InputLimits(maxWordLength: 5_000)).validate() }
    }

    /// Scripts written without spaces break between their letters, and long texts of them are fine.
    @Test func textsWithoutSpacesInScriptsThatBreakAnywhereAreNotRuns() throws {
        let chinese = String(repeating: "我们在海边的小屋里度过了整个夏天。", count: 200)
        let thai = String(repeating: "เราใช้เวลาทั้งฤดูร้อนที่บ้านริมทะเล", count: 100)
        let emoji = String(repeating: "🦊🌊", count: 1_000)
        for text in [chinese, thai, emoji] {
            #expect(throws: Never.self) { try document(text).validate() }
        }
        let address = "https://example.com/" + String(repeating: "a/b-c_d.e", count: 100)
        #expect(throws: Never.self) { try document("See \(address) for more.").validate() }
    }

    @Test func aLimitBelowOneIsABadOption() throws {
        #expect {
            try document("Fine.", limits: InputLimits(maxImagePixels: 0)).validate()
        } throws: { error in
            (error as? BookRenderError)?.kind == .invalidOptions
        }
    }
}

/// A theme the book names is looked for among the installed ones; a missing one is the book's
/// error, at `$.theme`.
@Suite struct BookThemeNameTests {
    @Test func anUnknownThemeIsTheBooksErrorAtItsPlace() throws {
        var book = Book(kind: .storybook, title: "Tam", pages: [Page(TextPage(text: "Hello."))])
        book.theme = "picture-bok"
        #expect {
            try TestBooks.document(book).validate()
        } throws: { error in
            guard let e = error as? BookRenderError else { return false }
            return e.exitCode == 65 && e.message.contains("$.theme: no theme \"picture-bok\"") && e.message.contains("picture-book")
        }
    }
}
