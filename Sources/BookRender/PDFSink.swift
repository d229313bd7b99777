import Foundation
import BookResolve

/// Where cairo's PDF bytes go: into the file, and into a running digest of the content
/// (`ContentHash`) that becomes the document's `/ID`. A JPEG passed through reaches the sink as the very buffer the
/// drawer handed cairo (cairo writes mime data in one call); for those bytes the digest takes the
/// image's own content hash, its asset id, instead of hashing megabytes a second time. Any other write,
/// including a JPEG cairo happened to copy first, is hashed byte by byte, so the digest always
/// covers the whole content either way.
final class PDFSink {
    /// What messages call the file: the PDF being made, not the temporary file it is written to.
    let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private let digest = ContentHash()
    private var known: [UnsafeRawPointer: (count: Int, id: String)] = [:]
    private(set) var error: String?

    init(_ url: URL, name: URL? = nil) throws {
        path = (name ?? url).path
        guard let f = fopen(url.path, "wb") else {
            throw RenderError("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        file = f
    }

    deinit { if let file { fclose(file) } }

    /// `bytes` (live until `forget`) hold the image whose content hash is `id`.
    func register(_ bytes: UnsafeRawPointer, count: Int, id: String) { known[bytes] = (count, id) }
    func forget(_ bytes: UnsafeRawPointer) { known[bytes] = nil }

    func write(_ data: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        guard let file, error == nil else { return false }
        if let image = known[UnsafeRawPointer(data)], image.count == length {
            digest.update(Data("<image \(image.id)>".utf8))
        } else {
            digest.update(UnsafeRawBufferPointer(start: data, count: length))
        }
        guard fwrite(data, 1, length, file) == length else {
            error = String(cString: strerror(errno))
            return false
        }
        return true
    }

    /// Flushes and closes the file; returns the content digest.
    func close() throws -> String {
        guard let f = file else { throw RenderError("\(path) was already closed") }
        file = nil
        if fclose(f) != 0, error == nil { error = String(cString: strerror(errno)) }
        if let error { throw RenderError("writing \(path) failed: \(error)") }
        return digest.finish()
    }
}
