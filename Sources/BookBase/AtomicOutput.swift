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
                throw OutputError("cannot move the finished file into place at \(target.path): \(OutputError.systemReason())")
            }
        } catch {
            unlink(tmp.path)
            throw error
        }
    }

    /// `data` to `target`, creating its folder first. Throws `OutputError`.
    public static func write(_ data: Data, to target: URL) throws {
        try makeFolder(target.deletingLastPathComponent())
        try write(to: target) { tmp in
            do { try data.write(to: tmp) } catch {
                throw OutputError("cannot write \(target.path): \(Self.reason(error))")
            }
        }
    }

    /// Creates `folder` and its parents when missing. Throws `OutputError`.
    public static func makeFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError("cannot create the folder \(folder.path): \(reason(error))")
        }
    }

    /// What went wrong in a Foundation write, in the system's words where it has them.
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return OutputError.systemReason(Int32(underlying.code))
        }
        if ns.domain == NSPOSIXErrorDomain { return OutputError.systemReason(Int32(ns.code)) }
        return ns.localizedDescription
    }
}
