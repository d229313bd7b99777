import Foundation

/// A request as the clients build it.
public struct HTTPRequest: Sendable {
    public var url: URL
    public var httpMethod = "GET"
    public var httpBody: Data?
    public private(set) var headers: [(name: String, value: String)] = []

    public init(url: URL) { self.url = url }

    public mutating func setValue(_ value: String, forHTTPHeaderField name: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }
}

/// One HTTP exchange's answer.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Lower-cased names.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status; self.headers = headers; self.body = body
    }
}

/// Why an exchange brought no answer, and whether the server may have acted on the request.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// No connection was made: the server never saw the request.
        case unreachable
        /// No TLS connection could be made (the server speaks plain HTTP, its certificate is not
        /// trusted): the server never saw the request, and trying again meets the same answer.
        case tlsFailed
        /// The request could not be built (no host, no scheme the client speaks): never sent.
        case unsendable
        /// No whole answer within the time-out: the server may have acted on the request.
        case timedOut
        /// The connection failed after the request went out: the server may have acted on it.
        case dropped
        /// A redirect that is not followed (to another origin, without a Location, too many).
        case refusedRedirect
    }
    public var kind: Kind
    public var reason: String

    public init(_ kind: Kind, _ reason: String) { self.kind = kind; self.reason = reason }

    public var description: String { reason }
}
