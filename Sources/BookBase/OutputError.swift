import Foundation

/// A file bookrender was asked to write could not be written: a folder that cannot be made, a full
/// disk, a rename refused. Commands report it with exit code 73 (sysexits' EX_CANTCREAT).
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The reason a system call failed, as `strerror` words it.
    public static func systemReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
