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

    @Test func aLimitBelowOneIsABadOption() throws {
        #expect {
            try document("Fine.", limits: InputLimits(maxImagePixels: 0)).validate()
        } throws: { error in
            (error as? BookRenderError)?.kind == .invalidOptions
        }
    }
}
