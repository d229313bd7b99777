import Foundation
import BookModel

/// Reads the images a book names, confined to the book's folder: a path may not be absolute, climb
/// out with `..` nor go through a symbolic link, so a book file cannot make bookrender read
/// arbitrary files.
/// Each file is opened once beneath the folder's descriptor (see `BookFolder`) and probed from that
/// descriptor; whatever reads it later opens it the same way and checks it is still that file.
public struct AssetLocator: Sendable {
    public let folder: URL
    let root: BookFolder
    private let prefetched = Prefetched()

    /// Pixels a picture may have (see `ImageCheck.dimensions`).
    public let maxImagePixels: Int
    /// Where the hashes of picture files seen before are remembered; nil hashes every file read.
    public let hashMemo: FileHashMemo?

    public init(folder: URL, maxImagePixels: Int = InputLimits.defaultMaxImagePixels, hashMemo: FileHashMemo? = nil) {
        self.init(root: BookFolder(folder), maxImagePixels: maxImagePixels, hashMemo: hashMemo)
    }

    init(root: BookFolder, maxImagePixels: Int = InputLimits.defaultMaxImagePixels, hashMemo: FileHashMemo? = nil) {
        self.folder = root.url
        self.root = root
        self.maxImagePixels = maxImagePixels
        self.hashMemo = hashMemo
    }

    public enum Outcome: Sendable {
        case found(ImageAsset)
        case missing(path: String)
    }

    /// `jsonPath` names the reference in errors ("$.pages[3].image").
    public func load(_ ref: ImageRef, jsonPath: String) throws(ResolveError) -> Outcome {
        let outcome = try find(ref, jsonPath: jsonPath)
        if case .found(let asset) = outcome {
            do {
                try ImageCheck.dimensions(asset.info, maxPixels: maxImagePixels)
            } catch {
                throw ResolveError("\(jsonPath): \(asset.origin) is not a usable image: \(error)")
            }
        }
        return outcome
    }

    private func find(_ ref: ImageRef, jsonPath: String) throws(ResolveError) -> Outcome {
        switch ref {
        case .inline(let data):
            return .found(try probe(data, origin: "inline image at \(jsonPath)", jsonPath: jsonPath))
        case .path(let relative):
            if let asset = prefetched[relative] { return .found(asset) }
            let asset = try loadFile(relative, jsonPath: jsonPath)
            // A picture on several pages is opened once and drawn from one asset.
            if let asset { prefetched[relative] = asset }
            return asset.map { .found($0) } ?? .missing(path: relative)
        }
    }

    private func loadFile(_ relative: String, jsonPath: String) throws(ResolveError) -> ImageAsset? {
        guard let opened = try openImage(relative, jsonPath: jsonPath) else { return nil }
        let file = CheckedFile(folder: root, path: relative, opened: opened)
        if let asset = Self.probedFromHeader(opened, file, origin: relative, memo: hashMemo) { return asset }
        // Read, hashed and probed, then let go: resolving a book of 300 photos never holds them all.
        guard let data = opened.readAll() else {
            throw ResolveError("\(jsonPath): cannot read \(relative) (check its permissions)")
        }
        return try probe(data, file: file, origin: relative, jsonPath: jsonPath)
    }

    /// The image file opened beneath the book's folder; nil when there is none.
    private func openImage(_ relative: String, jsonPath: String) throws(ResolveError) -> OpenedFile? {
        if relative.hasPrefix("/") || relative.hasPrefix("~") {
            throw ResolveError("\(jsonPath): \"\(relative)\" is absolute; image paths are relative to the book's folder")
        }
        do throws(BookFolder.Refusal) {
            return try root.openFile(relative)
        } catch {
            switch error {
            case .missing:
                return nil
            case .outside:
                throw ResolveError("\(jsonPath): \"\(relative)\" points outside the book's folder; keep images inside it")
            case .link:
                throw ResolveError("\(jsonPath): \"\(relative)\" \(error.reason(for: relative)): put the picture file itself there, inside the book's folder")
            case .notA(_, let found):
                throw ResolveError("\(jsonPath): \"\(relative)\" is \(found), not a file; an image must be a file inside the book's folder")
            case .changed:
                throw ResolveError("\(jsonPath): \"\(relative)\" was replaced while it was being opened; render again once nothing is changing the book's folder")
            case .unreadable(let reason):
                throw ResolveError("\(jsonPath): cannot read \(relative) (\(reason); check its permissions)")
            }
        }
    }

    /// A JPEG that ends with its end-of-image marker, probed from its header and those two bytes,
    /// its id left for when it is needed (see `ImageAsset`): a picture book's megabytes are then
    /// read once to be hashed while the PDF is being written, not before. Nil for anything else,
    /// and for any doubt, which the whole file read by `load` then settles and reports.
    static func probedFromHeader(_ opened: OpenedFile, _ file: CheckedFile, origin: String, memo: FileHashMemo? = nil) -> ImageAsset? {
        let fd = opened.descriptor
        let count = opened.identity.size
        guard count >= 4 else { return nil }
        var tail: [UInt8] = [0, 0]
        guard pread(fd, &tail, 2, off_t(count - 2)) == 2, tail == [0xFF, 0xD9] else { return nil }
        // The header, in a buffer from the heap: a mapping would be unmapped again after it, which
        // interrupts every other core running the process. A header longer than that (large
        // colour profiles or metadata) is read into a mapping as large as the file, of which only
        // the header's pages are touched.
        let heapSize = min(count, Self.headerBuffer)
        let heap = UnsafeMutableRawPointer.allocate(byteCount: heapSize, alignment: 16)
        defer { heap.deallocate() }
        if let info = probedHeader(fd, into: heap, count: heapSize) {
            return ImageAsset(file: file, info: info, origin: origin, memo: memo)
        }
        guard count > heapSize,
              let buffer = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              buffer != MAP_FAILED else { return nil }
        defer { munmap(buffer, count) }
        return probedHeader(fd, into: buffer, count: count).map { ImageAsset(file: file, info: $0, origin: origin, memo: memo) }
    }

    /// Enough for a header with its Exif data (a segment holds at most 64 KiB), and under the size
    /// from which the allocator maps memory of its own.
    static let headerBuffer = 96 << 10

    /// The JPEG header read into `buffer` (`count` bytes of room), probed; nil when it does not
    /// end within them or does not probe.
    private static func probedHeader(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> ImageInfo? {
        guard let length = JPEGHeader.read(fd, into: buffer, count: count), length >= 3,
              buffer.load(fromByteOffset: 2, as: UInt8.self) == 0xFF else { return nil }
        return try? ImageProbe.probeJPEG(header: UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// `relative` probed from its header as `load` would (nil when it is not such a JPEG or cannot be opened).
    func probedFromHeader(_ relative: String) -> ImageAsset? {
        guard let opened = try? root.openFile(relative) else { return nil }
        return Self.probedFromHeader(opened, CheckedFile(folder: root, path: relative, opened: opened), origin: relative, memo: hashMemo)
    }

    /// Probes the files at `paths` on all cores, ahead of the `load` calls that will ask for them
    /// (reading and hashing a file probed from its header is left for later, see
    /// `probedFromHeader`). A path that fails here is simply not kept: its `load` reads it again
    /// and reports the error with its JSON path.
    public func prefetch(_ paths: [String], threads: Int) {
        let unique = Array(Set(paths)).sorted()
        let threads = min(threads, unique.count)
        guard threads > 1 else { return }
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for relative in stride(from: t, to: unique.count, by: threads).map({ unique[$0] }) {
                if case .found(let asset)? = try? load(.path(relative), jsonPath: relative) { prefetched[relative] = asset }
            }
        }
    }

    /// Assets read ahead by `prefetch` or already loaded, by relative path; shared by the copies of
    /// the locator.
    private final class Prefetched: @unchecked Sendable {
        private let lock = NSLock()
        private var assets: [String: ImageAsset] = [:]
        subscript(path: String) -> ImageAsset? {
            get { lock.withLock { assets[path] } }
            set { lock.withLock { assets[path] = newValue } }
        }
    }

    private func probe(_ data: Data, file: CheckedFile? = nil, origin: String, jsonPath: String) throws(ResolveError) -> ImageAsset {
        do {
            let info = try ImageProbe.probe(data)
            if let file { return ImageAsset(file: file, data: data, info: info, origin: origin) }
            return ImageAsset(data: data, info: info, origin: origin)
        } catch {
            throw ResolveError("\(jsonPath): \(origin) is not a usable image: \(error)")
        }
    }
}

public struct ResolveError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
