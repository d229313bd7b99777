import Foundation

/// A `DecodingError` rewritten for a person: where it is (JSON path, line, column) and what was
/// expected, phrased as "expected …, found …".
struct DecodingProblem: Sendable {
    var issue: BookIssue
    /// Where in the file, so several problems are reported in reading order.
    var offset: Int

    init(_ error: DecodingError, in document: JSONDocument) {
        switch error {
        case .typeMismatch(let type, let context):
            let found = document.node(at: context.codingPath)
            let expected = context.debugDescription.hasPrefix("expected ")
                ? String(context.debugDescription.dropFirst("expected ".count))
                : Self.describe(type)
            self.init(context.codingPath, document, found.node.offset,
                      "expected \(expected), found \(Self.summary(found, pathLength: context.codingPath.count))")
        case .valueNotFound(let type, let context):
            let found = document.node(at: context.codingPath)
            self.init(context.codingPath, document, found.node.offset, "expected \(Self.describe(type)), found null")
        case .keyNotFound(let key, let context):
            let container = document.node(at: context.codingPath)
            var message = "required field \"\(key.stringValue)\" is missing"
            if let hint = Self.requiredFieldHints[key.stringValue] { message += "; \(hint)" }
            self.init(context.codingPath, document, container.node.offset, message)
        case .dataCorrupted(let context):
            let found = document.node(at: context.codingPath)
            var message = context.debugDescription
            // Foundation's words for a fraction where an integer belongs.
            if message.contains("does not fit in") || message.contains("not representable") {
                message = "expected an integer, found \(Self.summary(found, pathLength: context.codingPath.count))"
            }
            self.init(context.codingPath, document, found.node.offset, message)
        @unknown default:
            self.init(issue: BookIssue(message: "\(error)"), offset: 0)
        }
    }

    private init(issue: BookIssue, offset: Int) { self.issue = issue; self.offset = offset }

    private init(_ codingPath: [any CodingKey], _ document: JSONDocument, _ offset: Int, _ message: String) {
        let (line, column) = document.position(of: offset)
        issue = BookIssue(path: JSONPath.render(codingPath, in: document), line: line, column: column, message: message)
        self.offset = offset
    }

    private static func summary(_ found: (node: JSONNode, depth: Int), pathLength: Int) -> String {
        found.depth == pathLength ? found.node.summary : "nothing"
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is Data.Type: return "base64 text"
        case is Date.Type: return "a date (seconds since 2001-01-01, a number)"
        case is UUID.Type: return "a UUID string"
        case is URL.Type: return "a URL string"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
            if name.hasPrefix("Dictionary") || name.hasPrefix("[") { return "an object" }
            return "a \(name)"
        }
    }

    private static let requiredFieldHints: [String: String] = [
        "type": "a page needs one of \(PageType.allCases.map(\.rawValue).joined(separator: ", "))",
        "kind": "a book is one of \(BookKind.allCases.map(\.rawValue).joined(separator: ", "))",
        "title": "it is the book's title, a string",
        "pages": "it is an array of pages",
        "schema": "add \"schema\": \(Book.currentSchema)",
    ]
}
