import Foundation

/// A request the service refuses, answered as `{"error": {"code", "message"}}` with its HTTP status.
public struct APIError: Error, Sendable, CustomStringConvertible {
    public var status: Int
    /// A stable word clients can branch on.
    public var code: String
    /// What went wrong and what to do about it.
    public var message: String

    public init(_ status: Int, _ code: String, _ message: String) {
        self.status = status; self.code = code; self.message = message
    }

    public var description: String { "\(status) \(code): \(message)" }
}
