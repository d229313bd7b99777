import Foundation

/// Writes go to a hidden temporary file beside the target and are renamed over it only when
/// complete, so an interrupted run (even kill -9) leaves either the old file or the new one,
/// never half of one. Used for every file bookrender writes: PDFs, PNGs, journals, books, caches.
public enum AtomicOutput {
    /// Unique per call, so two threads writing the same target never share a temporary file.
    public static func temporaryPath(for target: URL) -> URL {
        target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    public static func write(to target: URL, _ body: (URL) throws -> Void) throws {
        let tmp = temporaryPath(for: target)
        do {
            try body(tmp)
            guard rename(tmp.path, target.path) == 0 else {
                throw RenderError("cannot move the finished file into place at \(target.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(tmp.path)
            throw error
        }
    }

    /// `data` to `target`, creating its folder first.
    public static func write(_ data: Data, to target: URL) throws {
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write(to: target) { tmp in try data.write(to: tmp) }
    }
}
