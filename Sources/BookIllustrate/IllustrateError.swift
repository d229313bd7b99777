public struct IllustrateError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The step could not go on (a key missing, a provider that cannot be used).
        case failed
        /// An option that cannot be used as given (a provider address a key must not go to).
        case invalidOptions
    }
    public var kind: Kind
    public var message: String
    public init(_ message: String, kind: Kind = .failed) { self.message = message; self.kind = kind }
    public var description: String { message }
}
