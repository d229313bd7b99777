import Foundation

/// An issue whose path is still in components, until it is known which file it is to be located in.
struct PathIssue: Sendable {
    var path: PathBuilder
    var message: String

    init(path: PathBuilder, message: String) { self.path = path; self.message = message }

    var issue: BookIssue { BookIssue(path: path.rendered, message: message) }

    /// With the line and column of the value at `path` (or of its nearest enclosing value that exists),
    /// and that byte offset, for sorting issues into reading order.
    func located(in document: JSONDocument) -> (issue: BookIssue, offset: Int) {
        let offset = document.node(at: path.codingPath).node.offset
        let (line, column) = document.position(of: offset)
        return (BookIssue(path: path.rendered, line: line, column: column, message: message), offset)
    }
}

extension Array where Element == PathIssue {
    /// Located issues in reading order; issues at one place keep the order they were found in.
    func located(in document: JSONDocument) -> [BookIssue] {
        enumerated().map { ($0.offset, $0.element.located(in: document)) }
            .sorted { ($0.1.offset, $0.0) < ($1.1.offset, $1.0) }
            .map(\.1.issue)
    }
}
