import Foundation

/// One request to the Print API, described before it is sent: the dry run prints these, the
/// client sends them.
struct LuluCall: Sendable {
    var method: String
    var path: String
    var query: [(String, String)] = []
    /// JSON, keys sorted, so the dry run and the wire show the same bytes every time.
    var body: Data?
    /// What the call asks for, as messages name it ("the cover dimensions").
    var what: String
    /// Safe to send again after a failure with no usable answer: Lulu documents these calls as
    /// reading, calculating or validating without creating a Print-Job. Creating one is not.
    var repeatable: Bool

    static func get(_ path: String, query: [(String, String)] = [], _ what: String) -> LuluCall {
        LuluCall(method: "GET", path: path, query: query, body: nil, what: what, repeatable: true)
    }

    static func post<T: Encodable>(_ path: String, _ body: T, _ what: String, repeatable: Bool) -> LuluCall {
        LuluCall(method: "POST", path: path, body: encode(body), what: what, repeatable: repeatable)
    }

    static func encode<T: Encodable>(_ value: T) -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(value)) ?? Data("{}".utf8)
    }
}
