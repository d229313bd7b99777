import Foundation
import BookModel

/// An export's report as a client reads it: every string in it goes through `ClientText`, so the
/// report names the job's files relative to it (`out/book.pdf`) and no other path of the server.
enum ReportText {
    static func forClient(_ value: JSONValue, job: JobFolder) -> JSONValue {
        switch value {
        case .string(let s): return .string(ClientText.forClient(s, job: job))
        case .array(let items): return .array(items.map { forClient($0, job: job) })
        case .object(let members): return .object(members.mapValues { forClient($0, job: job) })
        case .null, .bool, .number: return value
        }
    }

    static func forClient(_ data: Data, job: JobFolder) -> Data? {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        return JSONReply.encode(forClient(value, job: job))
    }
}
