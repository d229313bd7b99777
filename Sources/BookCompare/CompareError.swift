import Foundation

/// Why a comparison could not be made or its results could not be written.
public struct CompareError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// An input that does not exist, cannot be read, or is neither a PNG, a PDF nor a folder.
        case unreadable
        /// A PDF that the rasterizer could not turn into pages.
        case rasterizer
        /// A report, diff image or re-recorded page that could not be written.
        case writeFailed
        /// An option that makes no sense (an ignore region with no area, a negative DPI).
        case invalidArgument
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
