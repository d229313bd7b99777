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
        guard let data = try? Data(contentsOf: url, options: .uncached) else { return nil }
        let head = Data((magic + "\n").utf8)
        let headerLength = head.count + 33
        guard data.count > headerLength, data.prefix(head.count) == head,
              data[data.startIndex + headerLength - 1] == UInt8(ascii: "\n") else { return nil }
        let stated = String(decoding: data[data.startIndex + head.count..<data.startIndex + headerLength - 1], as: UTF8.self)
        let body = data.subdata(in: data.startIndex + headerLength..<data.endIndex)
        return ContentHash.hex(body) == stated ? body : nil
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
