import Foundation

/// Every file this step writes (images, journal, book, cache entries) goes to a hidden temporary
/// file beside its target and is renamed over it, so a kill -9 leaves either the old or the new file.
enum AtomicFile {
    static func write(_ data: Data, to target: URL) throws {
        let folder = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tmp = folder.appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try data.write(to: tmp)
            guard rename(tmp.path, target.path) == 0 else {
                throw IllustrateError("cannot move \(tmp.lastPathComponent) into place at \(target.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(tmp.path)
            throw error
        }
    }
}

public struct IllustrateError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
