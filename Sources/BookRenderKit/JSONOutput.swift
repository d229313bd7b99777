import Foundation
import BookBase

/// Reports and errors as JSON: pretty, keys sorted, so two reports of one book diff cleanly.
public enum JSONOutput {
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Writes `value` to `url` atomically. Throws `BookRenderError`.
    public static func write<T: Encodable>(_ value: T, to url: URL) throws(BookRenderError) {
        try BookRenderError.wrap {
            let data: Data
            do { data = try encode(value) } catch { throw RenderFailure("cannot encode the report: \(error)") }
            try AtomicOutput.write(data, to: url)
        }
    }
}

/// An internal failure with its message, reported as `renderingFailed`.
struct RenderFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
