import Foundation
import Hummingbird
import NIOCore

/// A request body written to the job's folder as it arrives, never collected in memory: a body
/// of the largest size the service takes costs a block of memory, and one larger is refused as
/// soon as it passes the limit.
enum BodySpool {
    static func write(_ body: RequestBody, to folder: JobFolder, limit: Int, tooLarge: APIError) async throws(APIError) {
        do {
            try FileManager.default.createDirectory(at: folder.root, withIntermediateDirectories: true)
        } catch {
            throw APIError(500, "storage", "cannot make the job's folder")
        }
        let fd = open(folder.upload.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw APIError(500, "storage", "cannot make the job's folder") }
        defer { close(fd) }
        var total = 0
        do {
            for try await buffer in body {
                total += buffer.readableBytes
                guard total <= limit else { throw tooLarge }
                let written = buffer.withUnsafeReadableBytes { raw -> Bool in
                    var done = 0
                    while done < raw.count {
                        let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                        if n < 0, errno == EINTR { continue }
                        guard n > 0 else { return false }
                        done += n
                    }
                    return true
                }
                guard written else { throw APIError(507, "storage", "the service's disk is full; try again later") }
            }
        } catch let e as APIError {
            throw e
        } catch {
            throw APIError(400, "incompleteBody", "the request body ended before it was whole; send it again")
        }
    }
}
