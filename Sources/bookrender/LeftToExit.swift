/// What a command hands to the operating system instead of freeing. A page tree holds every
/// Pango line, run and glyph string of the book; releasing them one by one at the end of an
/// export is a noticeable part of a long memoir's time and gives nothing back a finished process needs.
/// Only for values whose deinit has no effect outside the process (no file to flush or remove).
enum LeftToExit {
    nonisolated(unsafe) private static var kept: [Any] = []

    static func keep(_ value: Any) { kept.append(value) }
}
