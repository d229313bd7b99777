import Foundation
import BookBase
import CShim

/// Writes the `data:image/…;base64,…` pictures of a book beside it as `inline/HASH.png|jpg`, fed
/// the URI's text a stretch at a time as the body is read: a picture is decoded straight to its
/// file, never held whole. Named by content, so the same book sent twice is the same folder.
final class InlinePictures {
    let folder: URL
    private var header: [UInt8] = []
    private var inHeader = true
    private var ext = ""
    private var writer: BlockWriter?
    private var hasher: SHA256?
    private var state = shim_base64_state()
    /// Decoded bytes not yet written.
    private static let bufferSize = 1 << 16
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferSize)
    private var used = 0
    /// The header `data:image/png;base64,` is short; a longer one is no picture.
    private static let maxHeader = 128

    init(folder: URL) { self.folder = folder }

    deinit { buffer.deallocate() }

    private var inline: URL { folder.appendingPathComponent("inline") }
    private var receiving: URL { inline.appendingPathComponent(".receiving") }

    func begin() throws(APIError) {
        header = []; inHeader = true; ext = ""
        used = 0
        state = shim_base64_state()
        do { try FileManager.default.createDirectory(at: inline, withIntermediateDirectories: true) } catch {
            throw APIError(500, "storage", "cannot write the book's pictures into the job's folder")
        }
        writer = try BlockWriter(receiving)
        hasher = SHA256()
    }

    /// The next stretch of the URI's text.
    func feed(_ piece: UnsafeBufferPointer<UInt8>) throws(APIError) {
        var i = 0
        while inHeader, i < piece.count {
            let b = piece[i]
            i += 1
            if b == UInt8(ascii: ",") { try startData(); break }
            header.append(b)
            guard header.count <= Self.maxHeader else {
                throw APIError(400, "invalidDataURI", "a data: URI in the book has no comma after its type; write data:image/png;base64,…")
            }
        }
        guard i < piece.count, let base = piece.baseAddress else { return }
        while i < piece.count {
            let take = min(piece.count - i, (Self.bufferSize - used - 3) / 3 * 4)
            guard take > 0 else { flushDecoded(); continue }
            let written = shim_base64_decode(&state, base + i, take, buffer + used)
            guard written >= 0 else {
                throw APIError(400, "invalidDataURI", "a data: URI in the book is not valid base64 (letters after its = padding)")
            }
            used += written
            i += take
        }
    }

    private func startData() throws(APIError) {
        inHeader = false
        let text = String(decoding: header, as: UTF8.self)  // "data:image/png;base64"
        let fields = text.dropFirst(5).split(separator: ";", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard fields.last == "base64" else {
            throw APIError(400, "invalidDataURI", "a data: URI in the book is not base64 (data:image/png;base64,…)")
        }
        switch fields.first ?? "" {
        case "image/png": ext = "png"
        case "image/jpeg", "image/jpg": ext = "jpg"
        case let mime:
            throw APIError(400, "invalidDataURI", "a data: URI in the book holds \(mime.isEmpty ? "no type" : mime.prefix(40)); pictures are image/png or image/jpeg")
        }
    }

    private func flushDecoded() {
        let piece = UnsafeBufferPointer(start: buffer, count: used)
        writer?.append(piece)
        hasher?.update(UnsafeRawBufferPointer(piece))
        used = 0
    }

    /// Ends the picture: its file is put in place, and its name relative to the book returned.
    func finish() throws(APIError) -> String {
        if inHeader { throw APIError(400, "invalidDataURI", "a data: URI in the book has no comma after its type; write data:image/png;base64,…") }
        if used + 3 > Self.bufferSize { flushDecoded() }
        let tail = shim_base64_finish(&state, buffer + used)
        guard tail >= 0 else { throw APIError(400, "invalidDataURI", "a data: URI in the book is not valid base64 (it is cut short)") }
        used += tail
        flushDecoded()
        guard let writer, let hasher else { throw APIError(500, "internal", "a picture ended that never began") }
        try writer.finish()
        self.writer = nil
        self.hasher = nil
        let name = "inline/\(hasher.finish().prefix(24)).\(ext)"
        let target = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: target.path) {
            unlink(receiving.path)
        } else if rename(receiving.path, target.path) != 0 {
            throw APIError(500, "storage", "cannot write the book's pictures into the job's folder")
        }
        return name
    }
}
