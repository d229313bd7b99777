import CShim

/// Why an image could not be probed, decoded or written, in words a person can act on.
public struct ImageError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Empty, or neither a JPEG nor a PNG.
        case notAnImage
        /// The data stops before the image does (an interrupted copy or download).
        case truncated
        /// Damaged data, an invalid header, or a feature the decoder lacks.
        case invalid
        /// Larger than a cairo image surface can hold (32767 pixels a side).
        case tooLarge
        case outOfMemory
        /// The output file could not be written.
        case writeFailed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension ImageError {
    /// An error for a failed `shim_jpeg_*` call.
    public static func jpeg(status: Int32, detail: String) -> ImageError {
        switch Int(status) {
        case SHIM_JPEG_ERR_TRUNCATED: ImageError(.truncated, "truncated JPEG: \(detail)")
        case SHIM_JPEG_ERR_TOO_LARGE: ImageError(.tooLarge, detail)
        case SHIM_JPEG_ERR_MEMORY: ImageError(.outOfMemory, "JPEG: \(detail)")
        default: ImageError(.invalid, "JPEG: \(detail)")
        }
    }

    /// An error for a failed `shim_png_*` call.
    public static func png(status: Int32, detail: String) -> ImageError {
        switch Int(status) {
        case SHIM_PNG_ERR_TRUNCATED: ImageError(.truncated, "truncated PNG: \(detail)")
        case SHIM_PNG_ERR_TOO_LARGE: ImageError(.tooLarge, detail)
        case SHIM_PNG_ERR_MEMORY: ImageError(.outOfMemory, "PNG: \(detail)")
        case SHIM_PNG_ERR_IO: ImageError(.writeFailed, detail)
        default: ImageError(.invalid, "PNG: \(detail)")
        }
    }

    /// The text a shim left in its NUL-terminated message buffer.
    public static func shimMessage(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
