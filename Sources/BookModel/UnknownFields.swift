import Foundation

/// Finds fields the model does not have. `JSONDecoder` ignores them, so a misspelt `"captoin"` would
/// vanish without a word; they become warnings (not errors: the book still renders).
///
/// The known field names come from the model's own stored properties (their synthesized coding keys;
/// for a page, those of every page type's payload), so a field added to the model is known here
/// without touching this file.
enum UnknownFields {
    static func warnings(in document: JSONDocument) -> [BookIssue] {
        var out: [(Int, BookIssue)] = []
        walk(document.root, shape: BookShape.root, path: PathBuilder(), document: document, into: &out)
        return out.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private static func walk(_ node: JSONNode, shape: FieldShape, path: PathBuilder, document: JSONDocument,
                             into out: inout [(Int, BookIssue)]) {
        switch (shape, node.value) {
        case (.object(let fields), .object(let members)):
            var seen = Set<String>()
            for m in members where seen.insert(m.key).inserted {
                let here = path.key(m.key)
                if let sub = fields[m.key] {
                    walk(m.value, shape: sub, path: here, document: document, into: &out)
                } else {
                    var message = "unknown field, ignored"
                    if let near = Spelling.nearest(to: m.key, among: fields.keys.sorted()) { message += "; did you mean \"\(near)\"?" }
                    out.append(issue(here, m.keyOffset, document, message))
                }
            }
        case (.array(let element), .array(let items)):
            for (i, item) in items.enumerated() {
                walk(item, shape: element, path: path.index(i), document: document, into: &out)
            }
        default:
            break
        }
    }

    private static func issue(_ path: PathBuilder, _ offset: Int, _ document: JSONDocument, _ message: String) -> (Int, BookIssue) {
        let (line, column) = document.position(of: offset)
        return (offset, BookIssue(path: path.rendered, line: line, column: column, message: message))
    }
}

indirect enum FieldShape: Sendable {
    /// Known fields and what each holds; fields absent here are unknown.
    case object([String: FieldShape])
    case array(FieldShape)
    /// A scalar, or a value that takes any shape (token overrides).
    case any
}

enum BookShape {
    static let root: FieldShape = {
        let image = FieldShape.object(["path": .any, "base64": .any])
        let trim = FieldShape.object(["width": .any, "height": .any])
        let focus = FieldShape.object(["x": .any, "y": .any])
        let appearance = object(of: Appearance(), [:])
        let secondary = object(of: SecondaryCharacter(name: "", appearance: Appearance()), ["appearance": appearance])
        let main = object(of: MainCharacter(name: ""), ["image": image])
        let characters = object(of: Characters(), ["main": main, "secondary": .array(secondary)])
        let format = object(of: BookFormat(), ["trim": trim, "margins": object(of: Margins(), [:])])
        var pageFields: [String: FieldShape] = ["type": .any, "id": .any]
        for field in PageFields.all { pageFields[field] = ["image": image, "focus": focus][field] ?? .any }
        let page = FieldShape.object(pageFields)
        guard case .object(var fields) = object(of: Book(kind: .storybook, title: "", pages: []), [
            "format": format, "cover": object(of: Cover(), ["photo": image, "focus": focus]), "characters": characters,
            "matter": object(of: BookMatter(), ["authorPhoto": image, "publisherLogo": image]), "pages": .array(page),
            "narration": object(of: Narration(pages: []), ["pages": .array(object(of: NarratedPage(page: 1), [:]))]),
        ]) else { return .any }
        // Editors put the schema's address here to offer completion and checks.
        fields["$schema"] = .any
        return .object(fields)
    }()

    private static func object(of value: Any, _ nested: [String: FieldShape]) -> FieldShape {
        var fields: [String: FieldShape] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            fields[label] = nested[label] ?? .any
        }
        return .object(fields)
    }
}
