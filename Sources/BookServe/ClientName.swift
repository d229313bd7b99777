import Foundation
import Hummingbird

/// The client a job is counted against (`X-Client`): a short printable name, or `default`.
enum ClientName {
    static let maxLength = 64
    static func of(_ request: Request) throws(APIError) -> String {
        let values = request.headers.filter { $0.name.canonicalName == "x-client" }.map(\.value)
        guard let value = values.first else { return "default" }
        guard values.count == 1 else {
            throw APIError(400, "invalidClient", "X-Client is given \(values.count) times; give it once")
        }
        return try checked(value, "X-Client")
    }

    /// `value` as a client's name; `place` names where it came from in the message.
    static func checked(_ value: String, _ place: String) throws(APIError) -> String {
        guard !value.isEmpty, value.utf8.count <= maxLength, value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw APIError(400, "invalidClient", "\(place) must be 1 to \(maxLength) printable ASCII characters; it is \(value.utf8.count) bytes")
        }
        return value
    }
}
