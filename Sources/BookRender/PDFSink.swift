import Foundation
import BookBase
import BookResolve
import CShim
import CContentColour

/// Where cairo's PDF bytes go: into the file, and into a running digest of the content
/// (`ContentHash`) that becomes the document's `/ID`. A JPEG passed through reaches the sink as
/// the very buffer the drawer handed cairo (cairo writes mime data in one call); for those bytes
/// the digest takes the image's own content hash, its asset id, instead of hashing megabytes a
/// second time, and a buffer backed by its file (`JPEGFileBytes`) is copied from that file in the
/// kernel, by `ImageCopier` on a thread of its own while cairo writes on. Any other write is
/// hashed byte by byte, and a write that covers only part of a file-backed buffer takes those
/// bytes from the file, so the digest and the file always hold the content whichever way cairo
/// writes it.
final class PDFSink {
    /// What messages call the file: the PDF being made, not the temporary file it is written to.
    let path: String
    private var file: UnsafeMutablePointer<FILE>?
    private let digest = ContentHash()
    private struct Known {
        var count: Int; var id: String; var source: (descriptor: Int32, origin: String)?
        var adobeCMYK = false
    }
    private var known: [UnsafeRawPointer: Known] = [:]
    private(set) var error: CopyFailure?
    private let copiesOnAThread: Bool
    /// The finished PDF will replace an existing file (see `ImageCopier`).
    private let replacing: Bool
    /// Copies the pictures passed through, on its thread or on this one; made at the first.
    private var copier: ImageCopier?
    private var resourceLists = ResourceListFilter()
    /// Streams cairo wrote plain, compressed (and a page's content marked) here.
    private(set) var plainStreams: PlainStreams
    /// The C buffer `plainStreams` collects a body in: cairo writes a body a few bytes at a time,
    /// which this takes without the filter's Swift state.
    private let plainBody: UnsafeMutablePointer<plain_body>
    /// The last bytes written before a picture, kept once an Adobe CMYK JPEG is registered: the
    /// dictionary cairo wrote for it, which `decodeInverted` completes.
    private var tail: [UInt8]?
    /// The buffers the pictures passed through are handed to cairo in (see `JPEGFileBytes`).
    let headerSpace = SparseSpace()

    /// `copyingOnAThread`: pictures are copied on the `ImageCopier`'s thread; without, as cairo writes them.
    /// `name`: the file the PDF becomes, renamed from `url` once finished.
    /// `marksArtifacts`: page content cairo writes plain is marked (see `PlainStreams`).
    init(_ url: URL, name: URL? = nil, copyingOnAThread: Bool = true, marksArtifacts: Bool = true) throws {
        path = (name ?? url).path
        plainStreams = PlainStreams(marksArtifacts: marksArtifacts)
        plainBody = plainStreams.body.pointer
        copiesOnAThread = copyingOnAThread
        replacing = name.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        // A temporary (written under another name) was made by whoever named it: opened without
        // creating it, so one that a stop has removed meanwhile is not made again to be left behind.
        let temporary = name.map { $0.standardizedFileURL.path != url.standardizedFileURL.path } ?? false
        // The temporary is new and empty: truncating it anyway makes ext4 write the whole file out
        // when it is closed (its guard for files rewritten in place), on the export's own time.
        let fd = open(url.path, O_WRONLY | O_CLOEXEC | (temporary ? 0 : O_CREAT | O_TRUNC), 0o666)
        var status = stat()
        if fd >= 0, temporary, fstat(fd, &status) != 0 || status.st_size != 0 { _ = ftruncate(fd, 0) }
        guard fd >= 0, let f = fdopen(fd, "wb") else {
            if fd >= 0 { Glibc.close(fd) }
            throw OutputError.cannotWrite(name ?? url)
        }
        file = f
    }

    deinit {
        // The copier writes into the file: done before it is closed.
        _ = copier?.finish()
        if let file { fclose(file) }
    }

    /// `bytes` (live until `forget`) hold the image whose content hash is `id`. With `source`,
    /// they stand for that open file's bytes (only its header is in memory). `adobeCMYK`: a CMYK
    /// JPEG with Adobe's marker, its values inverted, as `CMYKPictures` writes them.
    func register(_ bytes: UnsafeRawPointer, count: Int, id: String, source: (descriptor: Int32, origin: String)? = nil,
                  adobeCMYK: Bool = false) {
        known[bytes] = Known(count: count, id: id, source: source, adobeCMYK: adobeCMYK)
        if adobeCMYK, tail == nil { tail = [] }
    }
    func forget(_ bytes: UnsafeRawPointer) { known[bytes] = nil }

    func write(_ data: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        guard let file, error == nil else { return false }
        let start = UnsafeRawPointer(data)
        // Inside a plain stream's body cairo writes a few bytes at a time, and never a picture's.
        if plain_body_take(plainBody, data, length) == 0 { return true }
        if let image = known[start], image.count == length {
            guard putPlain(plainStreams.flush(), into: file) else { return false }
            plainStreams.skip(length)
            digest.update(Data("<image \(image.id)>".utf8))
            if image.adobeCMYK, !decodeInverted(file) { return false }
            if let source = image.source { return copyPicture(from: source, length: length, into: file) }
            return put(start, length, into: file)
        }
        if let (base, image) = fileBacked(containing: start, length), let source = image.source {
            guard putPlain(plainStreams.flush(), into: file) else { return false }
            plainStreams.skip(length)
            return copyHashing(from: source, offset: start - base, length: length, into: file)
        }
        return act(plainStreams.take(UnsafeRawBufferPointer(start: data, count: length)), data, length, file)
    }

    /// Writes what the plain-stream filter made of one of cairo's writes.
    private func act(_ action: PlainStreams.Action, _ data: UnsafePointer<UInt8>, _ length: Int,
                     _ file: UnsafeMutablePointer<FILE>) -> Bool {
        switch action {
        case .hold: return true
        case .write(let bytes): return putPlain(bytes, into: file)
        case .failed:
            error = .writing("out of memory")
            return false
        case .pass: break
        }
        let piece = UnsafeBufferPointer(start: data, count: length)
        if resourceLists.wants(piece) { return putPlain(resourceLists.pass(piece), into: file) }
        digest.update(UnsafeRawBufferPointer(start: data, count: length))
        return put(UnsafeRawPointer(data), length, into: file)
    }

    /// A failure as the error to throw: an `OutputError` when the PDF could not be written.
    static func thrownError(for failure: CopyFailure, writing path: String) -> any Error {
        switch failure {
        case .writing(let reason): OutputError("cannot write \(path): \(reason)")
        case .reading(let problem): RenderError("writing \(path) failed: \(problem)")
        }
    }

    /// Flushes and closes the file; returns the content digest.
    func close() throws -> String {
        guard let f = file else { throw RenderError("\(path) was already closed") }
        _ = putPlain(plainStreams.flush(), into: f)
        _ = putPlain(resourceLists.flush(), into: f)
        file = nil
        if let failure = copier?.finish(), error == nil { error = failure }
        if fclose(f) != 0, error == nil { error = .writing(String(cString: strerror(errno))) }
        if let error { throw Self.thrownError(for: error, writing: path) }
        return digest.finish()
    }

    /// Bytes cairo wrote (as the resource-list filter passes them on): hashed and written.
    private func putPlain(_ bytes: [UInt8], into file: UnsafeMutablePointer<FILE>) -> Bool {
        guard !bytes.isEmpty else { return true }
        digest.update(Data(bytes))
        return bytes.withUnsafeBytes { put($0.baseAddress!, bytes.count, into: file) }
    }

    /// Leaves a hole the picture's size in the file and has `copier` fill it from the picture's
    /// file: on the copier's thread, or here with one worker (or no descriptor left to give it).
    private func copyPicture(from source: (descriptor: Int32, origin: String), length: Int,
                             into file: UnsafeMutablePointer<FILE>) -> Bool {
        guard fflush(file) == 0 else {
            error = .writing(String(cString: strerror(errno)))
            return false
        }
        let offset = ftello(file)
        // The bytes kept before a picture are those just written: a hole's are not known here.
        if tail != nil { tail = [] }
        let copier = self.copier ?? ImageCopier(output: fileno(file), replacing: replacing)
        self.copier = copier
        // A picture that could not be copied fails the PDF: no need to draw the pages after it.
        if let failure = copier.failure {
            error = failure
            return false
        }
        let queued = copiesOnAThread && copier.copy(from: source.descriptor, origin: source.origin, length: length, to: offset)
        if !queued, let problem = copier.copyHere(from: source.descriptor, origin: source.origin, length: length, to: offset) {
            error = problem
            return false
        }
        guard fseeko(file, off_t(length), SEEK_CUR) == 0 else {
            error = .writing(String(cString: strerror(errno)))
            return false
        }
        return true
    }

    private func put(_ bytes: UnsafeRawPointer, _ length: Int, into file: UnsafeMutablePointer<FILE>) -> Bool {
        guard fwrite(bytes, 1, length, file) == length else {
            error = .writing(String(cString: strerror(errno)))
            return false
        }
        if tail != nil { keep(UnsafeRawBufferPointer(start: bytes, count: length)) }
        return true
    }

    private static let tailLength = 1024
    private func keep(_ bytes: UnsafeRawBufferPointer) {
        tail!.append(contentsOf: bytes.suffix(Self.tailLength))
        if tail!.count > 2 * Self.tailLength { tail!.removeFirst(tail!.count - Self.tailLength) }
    }

    /// Completes the dictionary cairo just wrote for an Adobe CMYK JPEG, in place and at the same
    /// length (`CMYKImageDictionary`), so the offsets cairo counts stay true. False when writing failed.
    private func decodeInverted(_ file: UnsafeMutablePointer<FILE>) -> Bool {
        guard let written = tail, let fixed = CMYKImageDictionary.completed(endingWith: written) else { return true }
        tail = []
        guard fflush(file) == 0, fseeko(file, -off_t(fixed.count), SEEK_CUR) == 0,
              fwrite(fixed, 1, fixed.count, file) == fixed.count else {
            error = .writing(String(cString: strerror(errno)))
            return false
        }
        return true
    }

    private func fileBacked(containing start: UnsafeRawPointer, _ length: Int) -> (UnsafeRawPointer, Known)? {
        for (base, image) in known where image.source != nil && start >= base && start + length <= base + image.count {
            return (base, image)
        }
        return nil
    }

    /// Reads the bytes from the source file, adds them to the digest and writes them.
    private func copyHashing(from source: (descriptor: Int32, origin: String), offset: Int, length: Int,
                             into file: UnsafeMutablePointer<FILE>) -> Bool {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: min(max(length, 1), chunk), alignment: 16)
        defer { buffer.deallocate() }
        var done = 0
        while done < length {
            let got = pread(source.descriptor, buffer, min(chunk, length - done), off_t(offset + done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                error = .reading(ImageCopier.message(got, source.origin))
                return false
            }
            digest.update(UnsafeRawBufferPointer(start: buffer, count: got))
            guard put(buffer, got, into: file) else { return false }
            done += got
        }
        return true
    }
}
