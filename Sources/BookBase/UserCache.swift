import Foundation

/// Where bookrender keeps what it can always make again: `$XDG_CACHE_HOME/bookrender`, else
/// `~/.cache/bookrender`, else a folder of this user's in the temporary folder. A cache is only
/// ever a shortcut: an entry that is missing, damaged or of another version is made again.
public enum UserCache {
    /// The folder `name` of the cache (not made here).
    public static func folder(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base(environment: environment).appendingPathComponent(name, isDirectory: true)
    }

    public static func base(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("bookrender", isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/"), FileManager.default.isWritableFile(atPath: home) {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/bookrender", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("bookrender-cache-\(getuid())", isDirectory: true)
    }

    /// A verified entry: a file that starts with `magic`, a line holding the XXH3-128 of the rest,
    /// then the rest. Anything else (cut short, written by another version, changed on disk) is nil.
    public static func read(_ url: URL, magic: String) -> Data? {
        guard let entry = readOwned(url, magic: magic) else { return nil }
        return Data(bytesNoCopy: entry.bytes.baseAddress!, count: entry.bytes.count, deallocator: .free)
    }

    /// A verified entry's body as `read` gives it, in a buffer from `malloc` that the caller owns
    /// and frees, with its hash: for an entry whose bytes go on to C (a CMYK picture handed to
    /// cairo), read once and hashed once, not copied on the way.
    public static func readOwned(_ url: URL, magic: String) -> (bytes: UnsafeMutableRawBufferPointer, hash: String)? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        let head = Array((magic + "\n").utf8)
        let headerLength = head.count + 33
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > headerLength else { return nil }
        var header = [UInt8](repeating: 0, count: headerLength)
        guard header.withUnsafeMutableBytes({ readFully(fd, into: $0, at: 0) }), header.starts(with: head),
              header[headerLength - 1] == UInt8(ascii: "\n") else { return nil }
        let stated = String(decoding: header[head.count..<headerLength - 1], as: UTF8.self)
        let count = Int(status.st_size) - headerLength
        guard let base = malloc(count) else { return nil }
        let body = UnsafeMutableRawBufferPointer(start: base, count: count)
        let hash = ContentHash()
        guard readFully(fd, into: body, at: headerLength) else { free(base); return nil }
        hash.update(UnsafeRawBufferPointer(body))
        guard hash.finish() == stated else { free(base); return nil }
        return (body, stated)
    }

    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let got = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            done += got
        }
        return true
    }

    /// Writes `body` as an entry `read` accepts, atomically (beside it, then renamed), so a reader
    /// never sees half of one. A cache that cannot be written is no error: false.
    @discardableResult
    public static func write(_ body: Data, to url: URL, magic: String) -> Bool {
        var entry = Data((magic + "\n" + ContentHash.hex(body) + "\n").utf8)
        entry.append(body)
        do {
            try AtomicOutput.write(entry, to: url)
            return true
        } catch {
            return false
        }
    }
}
