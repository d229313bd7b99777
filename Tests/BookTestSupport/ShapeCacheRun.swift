import Foundation

/// What the built `bookrender` says of its shaping cache on stderr as it exits when run with
/// `BOOKRENDER_SHAPE_CACHE_STATS=1` (see `Sources/CShapeCache/include/shape_cache.h`).
public struct ShapeCacheStats: Sendable, CustomStringConvertible {
    /// `on`, `verifying` or `off`.
    public let state: String
    public let counts: [String: UInt64]
    /// Why it is off.
    public let why: String?
    public let description: String

    public static let counterNames = ["shaped", "shapedChars", "served", "servedChars", "wordItems", "wordChars", "mismatches"]

    public subscript(_ name: String) -> UInt64 { counts[name] ?? 0 }

    public init(stderr: String) throws {
        let prefix = "shape cache: "
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) else {
            throw ToolError("bookrender printed no shaping cache counts; stderr:\n\(stderr)")
        }
        description = String(line)
        var fields = String(line.dropFirst(prefix.count))
        if let quote = fields.range(of: " why=\"") {
            why = String(fields[quote.upperBound...].dropLast())
            fields = String(fields[..<quote.lowerBound])
        } else {
            why = nil
        }
        var state: String?
        var counts: [String: UInt64] = [:]
        for field in fields.split(separator: " ") {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw ToolError("unreadable shaping cache counts: \(line)") }
            if pair[0] == "state" { state = pair[1] } else if let n = UInt64(pair[1]) { counts[pair[0]] = n }
        }
        guard let state, Set(counts.keys) == Set(Self.counterNames) else {
            throw ToolError("unreadable shaping cache counts: \(line)")
        }
        self.state = state
        self.counts = counts
    }
}

/// Runs the built `bookrender` with `BOOKRENDER_SHAPE_CACHE` set to `setting` (`"1"`, `"0"` or
/// `"verify"`) and its counts printed at exit.
public func bookrenderWithShapeCache(_ setting: String, _ arguments: [String]) throws -> (result: ToolResult, stats: ShapeCacheStats) {
    var environment = ProcessInfo.processInfo.environment
    environment["BOOKRENDER_SHAPE_CACHE"] = setting
    environment["BOOKRENDER_SHAPE_CACHE_STATS"] = "1"
    let result = try run(try Repository.binary.path, arguments, environment: environment)
    return (result, try ShapeCacheStats(stderr: result.stderr))
}
