import Foundation

/// The rule for image paths in a book: relative to the book's folder and inside it, so a book can be
/// moved, zipped or rendered on a server without reaching files it does not own.
/// The JSON Schema (`schema/book.schema.json`) states the same rule as patterns.
public enum ImagePath {
    /// What is wrong with `path`, or nil when it is acceptable.
    public static func problem(with path: String) -> String? {
        if path.trimmingCharacters(in: .whitespaces).isEmpty {
            return "an image path is empty"
        }
        if path.contains("\u{0}") {
            return "an image path cannot contain a NUL character"
        }
        if let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") {
            return "\"\(path)\" is a URL; images are not downloaded: put the file in the book's folder and give its relative path"
        }
        if path.hasPrefix("/") || path.hasPrefix("~") || isWindowsAbsolute(path) {
            return "\"\(path)\" is an absolute path; give the path relative to the book's folder (images/page1.jpg)"
        }
        if path.contains("\\") {
            return "\"\(path)\" uses '\\'; separate folders with '/'"
        }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "\"\(path)\" leaves the book's folder (\"..\"); images must be inside the folder that holds the book"
        }
        return nil
    }

    private static func isWindowsAbsolute(_ path: String) -> Bool {
        let s = Array(path.utf8.prefix(3))
        guard s.count == 3 else { return false }
        let isLetter = (s[0] >= UInt8(ascii: "a") && s[0] <= UInt8(ascii: "z")) || (s[0] >= UInt8(ascii: "A") && s[0] <= UInt8(ascii: "Z"))
        return isLetter && s[1] == UInt8(ascii: ":") && (s[2] == UInt8(ascii: "\\") || s[2] == UInt8(ascii: "/"))
    }
}
