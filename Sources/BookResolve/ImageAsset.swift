import Foundation
import BookBase

/// An image's bytes, what its header says, and where it came from. Immutable, shared by every page
/// and output that draws it; `id` (XXH3-128 of the bytes, see `ContentHash`) dedups repeated
/// images in the PDF.
///
/// A file's bytes are not kept: the page tree holds every asset of the book for as long as it
/// renders, so holding bytes would make memory grow with the book. Whatever needs them later
/// (`data`, `openFile`, the hash) reads the descriptor the file was probed through, or, past the
/// process's budget of descriptors, opens it again beneath the book's folder and reads it only if
/// it is still the file that was probed (see `CheckedFile.open`): a file swapped for a link to
/// somewhere else since is never read.
public final class ImageAsset: Sendable {
    private enum Storage: Sendable {
        case bytes(Data)
        case file(CheckedFile)
    }
    private let storage: Storage
    public let info: ImageInfo
    /// "images/fox.jpg" or "inline image at $.pages[3].image": what an error or report names.
    public let origin: String
    /// XXH3-128 of the bytes. For a file probed from its header (see `init(file:byteCount:info:origin:)`),
    /// the file is read and hashed when the id is first asked for, or ahead by `hashAhead`.
    public var id: String { knownID ?? fileHash!.value }
    private let knownID: String?
    private let fileHash: FileHash?

    /// Bytes that live nowhere else (an inline image).
    public init(data: Data, info: ImageInfo, origin: String) {
        self.storage = .bytes(data)
        self.info = info
        self.origin = origin
        self.knownID = ContentHash.hex(data)
        self.fileHash = nil
    }

    /// An image file; `data` is its content as read now, used for the id and then let go.
    public init(file: CheckedFile, data: Data, info: ImageInfo, origin: String) {
        self.storage = .file(file)
        self.info = info
        self.origin = origin
        self.knownID = ContentHash.hex(data)
        self.fileHash = nil
    }

    /// An image file probed without reading it all: its id waits for its bytes until it is
    /// needed (usually when its page is drawn, by then hashed ahead), or is the one `memo`
    /// remembers for the file as it stands.
    public init(file: CheckedFile, info: ImageInfo, origin: String, memo: FileHashMemo? = nil) {
        self.storage = .file(file)
        self.info = info
        self.origin = origin
        self.knownID = nil
        self.fileHash = FileHash(file: file, memo: memo)
    }

    /// Hashes the files of `assets` not hashed yet on `threads` threads of their own, in order,
    /// while the caller goes on: the book is laid out and the PDF written (picture by picture,
    /// each copied from its file) as the ids come. Asking for an id a thread has not reached yet
    /// hashes it on the asking thread.
    public static func hashAhead(_ assets: [ImageAsset], threads: Int) {
        let pending = assets.compactMap(\.fileHash)
        guard threads > 0, !pending.isEmpty else { return }
        let queue = HashQueue(pending)
        for _ in 0..<min(threads, pending.count) {
            Thread.detachNewThread { while let next = queue.next() { next.computeIfUnclaimed() } }
        }
    }

    /// The image's bytes. For a file, read again — into memory, not mapped, so a file cut short
    /// by someone else meanwhile cannot crash the process with SIGBUS. If it has become unreadable,
    /// another file or another size since it was resolved, empty, which the decoder reports as a
    /// broken image naming its page.
    public var data: Data {
        switch storage {
        case .bytes(let d): return d
        case .file(let file):
            guard let d = file.open()?.readAll(), d.count == file.identity.size else { return Data() }
            return d
        }
    }

    /// The image's bytes, as `data`; a file's id, when no one has hashed the file yet, is taken
    /// from them, so a file read whole anyway (to be decoded) is not read again to be hashed.
    public func readBytes() -> Data {
        guard let fileHash, case .file(let file) = storage else { return data }
        guard let opened = file.open() else { return Data() }
        // The stamp the bytes were read under, when nothing changed the file while they were.
        let before = FileHashMemo.Stamp(descriptor: opened.descriptor)
        guard let d = opened.readAll(), d.count == file.identity.size else { return Data() }
        let stamp = before.flatMap { $0 == FileHashMemo.Stamp(descriptor: opened.descriptor) ? $0 : nil }
        if !d.isEmpty { fileHash.offer(d, stamp: stamp) }
        return d
    }

    /// An inline image's bytes in a new buffer from `malloc`, which the caller owns and frees (for
    /// cairo's mime data); nil for a file, whose bytes `openFile` gives instead.
    public func inlineCopy() -> UnsafeMutableRawBufferPointer? {
        guard case .bytes(let d) = storage, let base = malloc(max(d.count, 1)) else { return nil }
        d.withUnsafeBytes { if let source = $0.baseAddress { base.copyMemory(from: source, byteCount: d.count) } }
        return UnsafeMutableRawBufferPointer(start: base, count: d.count)
    }

    /// Whether the bytes are a file's (not an inline image's).
    public var isFile: Bool { file != nil }

    /// The size of the encoded picture, without reading a file.
    public var byteCount: Int {
        switch storage {
        case .bytes(let data): data.count
        case .file(let file): file.identity.size
        }
    }

    /// The file the picture is read from; nil for an inline image.
    public var file: URL? {
        if case .file(let file) = storage { return file.url }
        return nil
    }

    /// The image's file open for reading (see `CheckedFile.open`), when the asset is a file that
    /// is still the file resolved, at its size. Nil for bytes that live in memory (inline images)
    /// and for a file that has gone, been replaced or changed size. Read it at offsets.
    public func openFile() -> OpenedFile? {
        guard case .file(let file) = storage else { return nil }
        return file.open()
    }

    /// JPEGs go into the PDF byte for byte, except CMYK/YCCK ones: cairo 1.16 writes those without
    /// a /Decode array, so Adobe's inverted CMYK would print as a negative. Those are decoded instead.
    public var passesThroughToPDF: Bool {
        info.format == .jpeg && (info.colorModel == .gray || info.colorModel == .rgb)
    }

}

/// The id of an image file hashed when first needed, by whichever thread comes first.
private final class FileHash: @unchecked Sendable {
    private let file: CheckedFile
    private let memo: FileHashMemo?
    private let condition = NSCondition()
    private var claimed = false
    private var hex: String?

    init(file: CheckedFile, memo: FileHashMemo?) {
        self.file = file
        self.memo = memo
    }

    var value: String {
        condition.lock()
        if let hex {
            condition.unlock()
            return hex
        }
        if !claimed {
            claimed = true
            condition.unlock()
            return publish(compute())
        }
        while hex == nil { condition.wait() }
        defer { condition.unlock() }
        return hex!
    }

    /// The file's bytes as read elsewhere (under `stamp`, when the file kept one throughout):
    /// hashed here when no one has claimed the file yet.
    func offer(_ bytes: Data, stamp: FileHashMemo.Stamp?) {
        let mine = condition.withLock { () -> Bool in
            if claimed { return false }
            claimed = true
            return true
        }
        guard mine else { return }
        let digest = publish(ContentHash.hex(bytes))
        if let memo, let stamp { memo.remember(digest, for: stamp) }
    }

    func computeIfUnclaimed() {
        let mine = condition.withLock { () -> Bool in
            if claimed { return false }
            claimed = true
            return true
        }
        if mine { _ = publish(compute()) }
    }

    private func publish(_ value: String) -> String {
        condition.withLock {
            hex = value
            condition.broadcast()
        }
        return value
    }

    /// The file's XXH3-128. A file that has been replaced or changed size since it was probed
    /// gets an id no content has: the export then reports it as changed when it reads it again.
    /// A file whose stamp `memo` holds is not read at all.
    private func compute() -> String {
        guard let opened = file.open() else { return "unreadable:" + ContentHash.hex(file.path) }
        let stamp = memo == nil ? nil : FileHashMemo.Stamp(descriptor: opened.descriptor)
        if let memo, let stamp, stamp.identity == file.identity, let known = memo.hash(for: stamp) { return known }
        let hash = ContentHash()
        let total = hash.update(descriptor: opened.descriptor)
        let digest = hash.finish()
        guard total == file.identity.size else { return "changed:\(total):" + digest }
        if let memo, let stamp, stamp == FileHashMemo.Stamp(descriptor: opened.descriptor) { memo.remember(digest, for: stamp) }
        return digest
    }
}

/// File hashes waiting for a thread, in the order the book needs them.
private final class HashQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [FileHash]
    private var index = 0

    init(_ items: [FileHash]) { self.items = items }

    func next() -> FileHash? {
        lock.withLock {
            guard index < items.count else { return nil }
            defer { index += 1 }
            return items[index]
        }
    }
}
