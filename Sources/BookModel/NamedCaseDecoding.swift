import Foundation

// The synthesized decoding of a String enum says only "Cannot initialize PageType from invalid String
// value pitcure"; a person needs the accepted values and, for a typo, the one that was meant.

extension PageType {
    public init(from decoder: any Decoder) throws {
        self = try decodeNamedCase(from: decoder, noun: "a page type")
    }
}

extension BookKind {
    public init(from decoder: any Decoder) throws {
        self = try decodeNamedCase(from: decoder, noun: "a book kind")
    }
}

func decodeNamedCase<T: RawRepresentable & CaseIterable>(from decoder: any Decoder, noun: String) throws -> T
where T.RawValue == String {
    let names = T.allCases.map(\.rawValue)
    let c = try decoder.singleValueContainer()
    guard let raw = try? c.decode(String.self) else {
        throw DecodingError.typeMismatch(T.self, .init(codingPath: decoder.codingPath,
            debugDescription: "expected \(noun), a string: one of \(names.joined(separator: ", "))"))
    }
    if let value = T(rawValue: raw) { return value }
    var message = "\"\(raw)\" is not \(noun); expected one of \(names.joined(separator: ", "))"
    if let near = Spelling.nearest(to: raw, among: names) { message += " (did you mean \"\(near)\"?)" }
    throw DecodingError.dataCorruptedError(in: c, debugDescription: message)
}

public enum Spelling {
    /// The candidate a typo most likely meant: same letters ignoring case, or at most two edits away.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let lower = word.lowercased()
        if let same = candidates.first(where: { $0.lowercased() == lower }) { return same }
        let scored = candidates.map { ($0, distance(lower, $0.lowercased())) }.filter { $0.1 <= 2 && $0.1 < word.count }
        return scored.min(by: { $0.1 < $1.1 })?.0
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit ("pitcure" → "picture").
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
