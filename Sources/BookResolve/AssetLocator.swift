import Foundation
import BookModel

/// Reads the images a book names, confined to the book's folder: a path may not be absolute nor
/// climb out with `..` or a symlink, so a book file cannot make bookrender read arbitrary files.
public struct AssetLocator: Sendable {
    public let folder: URL
    private let realFolder: String
    private let prefetched = Prefetched()

    /// Pixels a picture may have (see `ImageCheck.dimensions`).
    public let maxImagePixels: Int

    public init(folder: URL, maxImagePixels: Int = InputLimits.defaultMaxImagePixels) {
        self.folder = folder
        self.maxImagePixels = maxImagePixels
        self.realFolder = folder.standardizedFileURL.resolvingSymlinksInPath().path
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
            let url = try confined(relative, jsonPath: jsonPath)
            guard FileManager.default.fileExists(atPath: url.path) else { return .missing(path: relative) }
            if let asset = Self.probedFromHeader(url, origin: relative) { return .found(asset) }
            // Read, hashed and probed, then let go: resolving a book of 300 photos never holds them
            // all. Not mapped: a file cut short meanwhile would crash the process with SIGBUS.
            guard let data = try? Data(contentsOf: url) else {
                throw ResolveError("\(jsonPath): cannot read \(relative) (check its permissions)")
            }
            return .found(try probe(data, file: url, origin: relative, jsonPath: jsonPath))
        }
    }

    /// A JPEG that ends with its end-of-image marker, probed from its header and those two bytes,
    /// its id left for when it is needed (see `ImageAsset`): a picture book's megabytes are then
    /// read once to be hashed while the PDF is being written, not before. Nil for anything else,
    /// and for any doubt, which the whole file read by `load` then settles and reports.
    static func probedFromHeader(_ url: URL, origin: String) -> ImageAsset? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 4 else { return nil }
        let count = Int(status.st_size)
        var tail: [UInt8] = [0, 0]
        guard pread(fd, &tail, 2, off_t(count - 2)) == 2, tail == [0xFF, 0xD9] else { return nil }
        // As large as the file but only the header's pages are touched.
        guard let buffer = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              buffer != MAP_FAILED else { return nil }
        defer { munmap(buffer, count) }
        guard let length = JPEGHeader.read(fd, into: buffer, count: count), length >= 3,
              buffer.load(fromByteOffset: 2, as: UInt8.self) == 0xFF,
              let info = try? ImageProbe.probeJPEG(header: UnsafeRawBufferPointer(start: buffer, count: length)) else { return nil }
        return ImageAsset(file: url, byteCount: count, info: info, origin: origin)
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

    /// Assets read ahead by `prefetch`, by relative path; shared by the copies of the locator.
    private final class Prefetched: @unchecked Sendable {
        private let lock = NSLock()
        private var assets: [String: ImageAsset] = [:]
        subscript(path: String) -> ImageAsset? {
            get { lock.withLock { assets[path] } }
            set { lock.withLock { assets[path] = newValue } }
        }
    }

    func confined(_ relative: String, jsonPath: String) throws(ResolveError) -> URL {
        if relative.hasPrefix("/") || relative.hasPrefix("~") {
            throw ResolveError("\(jsonPath): \"\(relative)\" is absolute; image paths are relative to the book's folder")
        }
        let url = folder.appendingPathComponent(relative).standardizedFileURL
        let real = url.resolvingSymlinksInPath().path
        guard real == realFolder || real.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/") else {
            throw ResolveError("\(jsonPath): \"\(relative)\" points outside the book's folder; keep images inside it")
        }
        return url
    }

    private func probe(_ data: Data, file: URL? = nil, origin: String, jsonPath: String) throws(ResolveError) -> ImageAsset {
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
