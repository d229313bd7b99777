import Foundation

/// A file bookrender was asked to write could not be written: a folder that cannot be made, a full
/// disk, a rename refused. Commands report it with exit code 73 (sysexits' EX_CANTCREAT).
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The reason a system call failed, as `strerror` words it.
    public static func systemReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// "cannot write TARGET: REASON" for the system call that just failed (errno) while writing
    /// `target` or its temporary file: messages name the file the user asked for.
    public static func cannotWrite(_ target: URL, _ code: Int32 = errno) -> OutputError {
        OutputError("cannot write \(target.path): \(reason(writing: target, code))")
    }

    /// The system's words, made precise where they would mislead: a folder on the way that is a
    /// file reads "Not a directory", which does not say which.
    static func reason(writing target: URL, _ code: Int32) -> String {
        if code == ENOTDIR || code == EEXIST, let file = fileOnTheWay(to: target) {
            return "\(systemReason(ENOTDIR)) (\(file.path) is a file)"
        }
        return systemReason(code)
    }

    /// The first ancestor of `url` that exists and is not a folder.
    static func fileOnTheWay(to url: URL) -> URL? {
        var ancestors: [URL] = []
        var folder = url.standardizedFileURL.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            ancestors.insert(folder, at: 0)
            folder = folder.deletingLastPathComponent()
        }
        for folder in ancestors {
            var info = stat()
            guard stat(folder.path, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT != S_IFDIR { return folder }
        }
        return nil
    }
}
