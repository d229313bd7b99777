/// Why an order step stopped: what a person reads, and whether the order itself or the way to the
/// printer is at fault.
public struct OrderError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// An option that cannot be used as given (an address a key must not go to, a bad flag).
        case invalidOptions
        /// A file given to the order cannot be read.
        case unreadableInput
        /// The order cannot be placed as given: the printer refused it or its files, or the cover,
        /// the product or the address does not fit.
        case rejected
        /// The printer could not be reached, failed past the retries, or refused the keys.
        case failed
    }
    public var kind: Kind
    public var message: String
    /// The request went out and no clear answer came back: the printer may have acted on it.
    var mayHaveActed = false

    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    public var description: String { message }
}
