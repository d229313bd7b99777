import Foundation
import Testing
@testable import BookModel

@Suite("Schema errors name the JSON path and what was expected")
struct SchemaErrorTests {
    @Test func anUnknownPageTypeListsThePageTypes() throws {
        let error = try #require(Fixtures.error("bad/unknown-page-type.json"))
        #expect(error.kind == .schema)
        #expect(error.issues.count == 1)
        #expect(error.description.hasSuffix(
            "unknown-page-type.json: $.pages[3].type: \"pitcure\" is not a page type; expected one of illustration, text, photo, chapter, spread, qr (line 9, column 15)"))
    }

    @Test func aWrongTypeSaysWhatWasExpectedAndFound() throws {
        let error = try #require(Fixtures.error("bad/wrong-type.json"))
        #expect(error.kind == .schema)
        #expect(error.description.hasSuffix("wrong-type.json: $.pages[1].text: expected a string, found a number (42) (line 7, column 31)"))
    }

    @Test func aMissingRequiredField() throws {
        let error = try #require(Fixtures.error("bad/missing-title.json"))
        #expect(error.kind == .schema)
        #expect(error.description.hasSuffix("missing-title.json: $: required field \"title\" is missing; it is the book's title, a string (line 1, column 1)"))
    }

    @Test func everyDecodingErrorIsReportedInFileOrder() throws {
        let error = try #require(Fixtures.error("bad/several-type-errors.json"))
        #expect(error.kind == .schema)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(error)")
        guard lines.count == 5 else { return }
        #expect(lines[0].hasSuffix("several-type-errors.json: $.kind: \"novel\" is not a book kind; expected one of storybook, memoir (line 3, column 11)"))
        #expect(lines[1].contains("$.format.trim: expected a trim size: a preset name (\"8.25x11\", \"a4\") or {\"width\": …, \"height\": …}, found a number (5)"))
        #expect(lines[2].contains("$.pages[0].type: \"pitcure\" is not a page type"))
        #expect(lines[3].contains("$.pages[2].text: expected a string, found true"))
        #expect(lines[4].contains("$.pages[3].image: expected an image: a path string, {\"path\": …} or {\"base64\": …}, found a number (7)"))
        #expect(lines.allSatisfy { $0.contains("several-type-errors.json: $.") })
    }

    @Test func anUnsupportedSchemaVersionSaysWhichAreSupported() throws {
        let error = try #require(Fixtures.error("bad/unsupported-schema.json"))
        #expect(error.kind == .unsupported)
        #expect(error.description.hasSuffix(
            "unsupported-schema.json: $.schema: schema 2 is not supported; this bookrender reads schema 1; this file needs a newer bookrender (line 2, column 13)"))
    }

    @Test func aSchemaVersionThatIsNoIntegerIsASchemaError() throws {
        let error = try #require(loadError { try loadText(#"{"schema": "1", "kind": "memoir", "title": "T", "pages": []}"#) })
        #expect(error.kind == .schema)
        #expect(error.description == "book.json: $.schema: expected the schema version, an integer (1), found a string (\"1\") (line 1, column 12)")
    }

    @Test("messages of the model's own value types", arguments: [
        (#"{"type": "photo", "image": {"url": "x"}}"#, "$.pages[0].image: an image object needs \"path\" (relative to the book's folder) or \"base64\" (the bytes)"),
        (#"{"type": "photo", "image": "data:image/png,abc"}"#, "$.pages[0].image: a data: URL must be base64"),
        (#"{"type": "Text", "text": "x"}"#, "$.pages[0].type: \"Text\" is not a page type; expected one of illustration, text, photo, chapter, spread, qr (did you mean \"text\"?)"),
        (#"{"type": "ilustration", "scene": "x"}"#, "(did you mean \"illustration\"?)"),
        (#"{"type": 3}"#, "$.pages[0].type: expected a page type, a string: one of illustration, text, photo, chapter, spread, qr, found a number (3)"),
        (#"{"text": "x"}"#, "$.pages[0]: required field \"type\" is missing; a page needs one of illustration"),
        (#"{"type": null}"#, "$.pages[0].type: expected"),
    ])
    func valueTypeMessages(page: String, expected: String) throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: page)) })
        #expect(error.kind == .schema)
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test("lengths", arguments: [
        (#""margins": {"top": "2 furlongs"}"#, "$.format.margins.top: \"2 furlongs\" is not a length: write a number with in, mm, cm or pt"),
        (#""margins": {"top": -3}"#, "$.format.margins.top: a length cannot be negative"),
        (#""margins": {"top": true}"#, "$.format.margins.top: expected a length: a number of points or a string with a unit (\"0.5in\", \"12mm\"), found true"),
        (#""trim": {"width": "6in"}"#, "$.format.trim: required field \"height\" is missing"),
    ])
    func lengthMessages(format: String, expected: String) throws {
        let error = try #require(loadError { try loadText(bookJSON(pages: #"{"type": "text", "text": "x"}"#, extra: #" "format": {\#(format)},"#)) })
        #expect(error.kind == .schema)
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test func anIntegerFieldGivenAFractionIsExplained() throws {
        let error = try #require(loadError { try loadText(#"{"schema": 1.5, "kind": "memoir", "title": "T", "pages": []}"#) })
        #expect(error.description.contains("$.schema: expected the schema version, an integer (1), found a number (1.5)"))
    }
}
