import Foundation

/// Keys that appear twice in one object. JSON leaves the meaning open and tools disagree (Foundation's
/// decoder keeps the first, Python's json and most editors the last), so the book a validator or an
/// editor shows would not be the book that renders.
enum DuplicateKeys {
    static func find(in document: JSONDocument) -> [(issue: BookIssue, offset: Int)] {
        var out: [(BookIssue, Int)] = []
        walk(document.root, PathBuilder(), document, &out)
        return out
    }

    private static func walk(_ node: JSONNode, _ path: PathBuilder, _ document: JSONDocument, _ out: inout [(BookIssue, Int)]) {
        switch node.value {
        case .object(let members):
            var first: [String: Int] = [:]
            for m in members {
                if let earlier = first[m.key] {
                    let (line, column) = document.position(of: m.keyOffset)
                    let (l0, c0) = document.position(of: earlier)
                    out.append((BookIssue(path: path.key(m.key).rendered, line: line, column: column,
                        message: "\"\(m.key)\" appears twice in the same object (first at line \(l0), column \(c0)); keep one"), m.keyOffset))
                } else {
                    first[m.key] = m.keyOffset
                }
                walk(m.value, path.key(m.key), document, &out)
            }
        case .array(let items):
            for (i, item) in items.enumerated() { walk(item, path.index(i), document, &out) }
        default:
            break
        }
    }
}
