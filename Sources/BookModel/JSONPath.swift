import Foundation

/// JSONPath notation (`$.pages[3].type`), the form people paste into `jq` or search for in an editor.
enum JSONPath {
    static func render(_ components: [PathComponent]) -> String {
        var s = "$"
        for c in components {
            switch c {
            case .index(let i): s += "[\(i)]"
            case .key(let k): s += isIdentifier(k) ? ".\(k)" : "[\"\(k.replacingOccurrences(of: "\"", with: "\\\""))\"]"
            }
        }
        return s
    }

    /// Decoding paths name array positions with keys whose `intValue` is set; the document tells
    /// whether a key really indexed an array (a dictionary key "2" has an `intValue` too).
    static func render(_ codingPath: [any CodingKey], in document: JSONDocument?) -> String {
        var components: [PathComponent] = []
        var node = document?.root
        for key in codingPath {
            var isIndex = key.intValue != nil
            if let n = node {
                switch n.value {
                case .object:
                    isIndex = false
                    node = n[key.stringValue]
                case .array(let items):
                    isIndex = true
                    node = key.intValue.flatMap { items.indices.contains($0) ? items[$0] : nil }
                default:
                    node = nil
                }
            }
            components.append(isIndex ? .index(key.intValue ?? 0) : .key(key.stringValue))
        }
        return render(components)
    }

    private static func isIdentifier(_ k: String) -> Bool {
        guard let first = k.unicodeScalars.first, first == "$" || first == "_" || first.properties.isAlphabetic else { return false }
        return k.unicodeScalars.allSatisfy { $0 == "$" || $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

enum PathComponent: Sendable, Equatable {
    case key(String)
    case index(Int)
}

/// A path built while walking a value, for validation and warnings.
struct PathBuilder: Sendable {
    var components: [PathComponent] = []

    func key(_ k: String) -> PathBuilder { PathBuilder(components: components + [.key(k)]) }
    func index(_ i: Int) -> PathBuilder { PathBuilder(components: components + [.index(i)]) }
    var rendered: String { JSONPath.render(components) }

    /// The coding path this path corresponds to, for looking the value up in a document.
    var codingPath: [any CodingKey] {
        components.map { c -> any CodingKey in
            switch c {
            case .key(let k): return PlainKey(k)
            case .index(let i): return PlainKey(index: i)
            }
        }
    }
}

struct PlainKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?
    init(_ s: String) { stringValue = s }
    init(index: Int) { stringValue = "\(index)"; intValue = index }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.init(index: intValue) }
}
