import Foundation
import Testing
@testable import BookModel

@Suite("Syntax errors name file, line and column")
struct SyntaxErrorTests {
    @Test func aMissingComma() throws {
        let error = try #require(Fixtures.error("bad/syntax-missing-comma.json"))
        #expect(error.kind == .syntax)
        #expect(error.issues.first?.line == 5)
        #expect(error.issues.first?.column == 3)
        #expect(error.description.hasSuffix(
            "syntax-missing-comma.json:5:3: expected ',' or '}' after the value of \"title\", found another key; a comma is missing"))
    }

    @Test func aTrailingCommaCountsCharactersNotBytes() throws {
        let error = try #require(Fixtures.error("bad/syntax-trailing-comma.json"))
        #expect(error.kind == .syntax)
        #expect(error.description.hasSuffix(
            "syntax-trailing-comma.json:6:59: a comma before ']' must be removed: JSON allows no trailing comma"))
    }

    @Test("messages for common mistakes", arguments: [
        ("", 1, 1, "the file is empty"),
        ("{\n  'title': 1}", 2, 3, "a key needs double quotes (\"), not single quotes"),
        ("{\n  title: 1}", 2, 3, "a key needs double quotes: write \"title\""),
        ("{\"a\": 'x'}", 1, 7, "strings need double quotes"),
        ("{\"a\": 1 // note\n}", 1, 9, "JSON allows no comments"),
        ("// note\n{}", 1, 1, "JSON allows no comments"),
        ("{\"a\": True}", 1, 7, "'True' is not JSON; write true, false or null in lower case"),
        ("{\"a\": NaN}", 1, 7, "NaN is not a JSON number"),
        ("{\"a\": 012}", 1, 7, "cannot start with 0 followed by digits"),
        ("{\"a\": 1.}", 1, 7, "a digit must follow the decimal point"),
        ("{\"a\": .5}", 1, 7, "needs a digit before the decimal point"),
        ("{\"a\": +1}", 1, 7, "no leading '+'"),
        ("{\"a\": hello}", 1, 7, "'hello' is not a JSON value; text needs double quotes (\"hello\")"),
        ("{\"a\": \"x\ny\"}", 1, 9, "a line break inside a string must be written as \\n"),
        ("{\"a\": \"\\q\"}", 1, 8, "\\q is not a JSON escape"),
        ("{\"a\": \"\\u12\"}", 1, 8, "\\u must be followed by four hex digits"),
        ("{\"a\": \"\\uD83D\"}", 1, 8, "starts a surrogate pair"),
        ("{\"a\": \"never closed}", 1, 7, "this string is never closed"),
        ("{\"a\": [1, 2 3]}", 1, 13, "expected ',' or ']' after item 1 of the array, found '3'"),
        ("{\"a\": [1,, 2]}", 1, 10, "two commas in a row"),
        ("{\"a\": [1, 2}", 1, 12, "'}' closes an array"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
        ("{\"a\": 1,}", 1, 8, "a comma before '}' must be removed"),
        ("{\"a\": 1} x", 1, 10, "'x' after the end of the JSON document"),
        ("{\n\"a\": [1,\n2", 3, 2, "the file ends inside the array opened at line 2, column 6; a ']' is missing"),
        ("{\"a\": {\"b\": 1}", 1, 15, "the file ends inside the object opened at line 1, column 1; a '}' is missing"),
    ])
    func commonMistakes(json: String, line: Int, column: Int, message: String) throws {
        let error = try #require(loadError { try loadText(json) })
        #expect(error.kind == .syntax)
        #expect(error.issues.count == 1)
        #expect(error.issues.first?.line == line, "line in \(error)")
        #expect(error.issues.first?.column == column, "column in \(error)")
        #expect(error.description.hasPrefix("book.json:\(line):\(column): "))
        #expect(error.description.contains(message), "\(error)")
    }

    @Test func invalidUTF8IsLocated() throws {
        var data = Data("{\"title\": \"ab".utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data("\"}".utf8))
        let error = try #require(loadError { try BookLoader.load(data: data, name: "x.json", folder: URL(fileURLWithPath: "/")) })
        #expect(error.description == "x.json:1:14: the file is not valid UTF-8 here; save it as UTF-8")
    }

    @Test func aByteOrderMarkIsAcceptedAndNotCounted() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"T\", \"pages\": [{\"type\": \"text\", \"text\": \"x\"}]}".utf8))
        #expect(try BookLoader.load(data: data, name: "b.json", folder: URL(fileURLWithPath: "/")).book.title == "T")
        var broken = Data([0xEF, 0xBB, 0xBF])
        broken.append(Data("{x}".utf8))
        let error = try #require(loadError { try BookLoader.load(data: broken, name: "b.json", folder: URL(fileURLWithPath: "/")) })
        #expect(error.issues.first?.column == 2)
    }

    @Test func escapesDecodeAsJSONDecoderDoes() throws {
        let loaded = try loadText(bookJSON(pages: #"{"type": "text", "text": "caf\u00e9 \ud83c\udf19 a\/b \"q\" tab\t"}"#))
        #expect((loaded.book.pages[0].content.payload as? TextPage)?.text == "café 🌙 a/b \"q\" tab\t")
    }

    @Test func deepNestingIsRefusedNotCrashed() throws {
        let json = String(repeating: "[", count: 100_000)
        let error = try #require(loadError { try loadText(json) })
        #expect(error.description.contains("nested more than 512 levels deep"))
    }
}
