import Foundation

/// Writes go to a hidden temporary file beside the target and are renamed over it when complete,
/// so an interrupted run never leaves half a report or a half-written reference page.
enum AtomicFile {
    static func write(to target: URL, _ body: (URL) throws(CompareError) -> Void) throws(CompareError) {
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try body(temporary)
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CompareError(.writeFailed, "cannot move the finished file into place at \(target.path): \(reason)")
        }
    }

    static func write(_ data: Data, to target: URL) throws(CompareError) {
        try write(to: target) { (temporary: URL) throws(CompareError) in
            do {
                try data.write(to: temporary)
            } catch {
                throw CompareError(.writeFailed, "cannot write \(target.path): \(RGBAImage.reason(error))")
            }
        }
    }

    static func write(_ image: RGBAImage, to target: URL) throws(CompareError) {
        try write(to: target) { (temporary: URL) throws(CompareError) in try image.writePNG(to: temporary) }
    }

    static func makeDirectory(_ url: URL) throws(CompareError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CompareError(.writeFailed, "cannot create \(url.path): \(RGBAImage.reason(error))")
        }
    }
}
