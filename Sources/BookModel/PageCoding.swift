import Foundation

// A page is one flat object in book.json: its `type`, `id`, and its type's fields beside them.

extension Page: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: PlainKey.self)
        let type = try c.decode(PageType.self, forKey: PlainKey("type"))
        id = try c.decodeIfPresent(String.self, forKey: PlainKey("id"))
        content = try type.payloadType.init(from: decoder).content

        let own = PageFields.of(type)
        for key in c.allKeys where PageFields.all.contains(key.stringValue) && !own.contains(key.stringValue) {
            if try c.decodeNil(forKey: key) { continue }
            unreadFields[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
        }
        // Decoded also as the types that read them, so a value of the wrong kind is the same error
        // on every page type.
        for other in PageType.allCases where other != type && !PageFields.of(other).isDisjoint(with: unreadFields.keys) {
            _ = try other.payloadType.init(from: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: PlainKey.self)
        try c.encode(type, forKey: PlainKey("type"))
        try c.encodeIfPresent(id, forKey: PlainKey("id"))
        for (key, value) in unreadFields.sorted(by: { $0.key < $1.key }) { try c.encode(value, forKey: PlainKey(key)) }
        // Into the same object: the payload's fields sit beside `type`.
        try content.payload.encode(to: encoder)
    }
}

/// The field names of each page type in book.json, besides `type` and `id`.
enum PageFields {
    private static let byType: [PageType: Set<String>] =
        Dictionary(uniqueKeysWithValues: PageType.allCases.map { ($0, Set($0.payloadType.fieldNames)) })

    /// Every page type's.
    static let all: Set<String> = byType.values.reduce(into: []) { $0.formUnion($1) }

    static func of(_ type: PageType) -> Set<String> { byType[type] ?? [] }
}
