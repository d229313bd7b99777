import Foundation

/// Writes go to a hidden temporary file beside the target and are renamed over it only when
/// complete, so an interrupted run never leaves a half-written PDF or PNG behind.
enum AtomicOutput {
    static func temporaryPath(for target: URL) -> URL {
        target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())")
    }

    static func write(to target: URL, _ body: (URL) throws -> Void) throws {
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
}
