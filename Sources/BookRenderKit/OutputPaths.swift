import Foundation

/// No output may be an input of the same run (the book, one of its pictures) or another output
/// of it: compared by resolved path and, for files that exist, by file identity, so a hard link
/// or a symlink to the book is caught as well as its own name.
struct OutputPaths {
    private struct Identity: Hashable { var device: UInt64; var inode: UInt64 }

    private var inputs: [(name: String, path: String, identity: Identity?)] = []
    private var outputs: [(name: String, path: String, identity: Identity?)] = []

    mutating func input(_ url: URL, as name: String) {
        inputs.append((name, Self.canonical(url), Self.identity(url)))
    }

    mutating func output(_ url: URL, as name: String) {
        outputs.append((name, Self.canonical(url), Self.identity(url)))
    }

    /// Fails when an output is an input or another output.
    func verify() throws(BookRenderError) {
        for (i, out) in outputs.enumerated() {
            func same(_ other: (name: String, path: String, identity: Identity?)) -> Bool {
                other.path == out.path || (out.identity != nil && other.identity == out.identity)
            }
            if let input = inputs.first(where: same) {
                throw BookRenderError(.unwritableOutput,
                    "\(out.name) \(out.path) is \(input.name), an input of this export; choose another path")
            }
            if let other = outputs[..<i].first(where: same) {
                throw BookRenderError(.unwritableOutput, "\(out.name) \(out.path) is also \(other.name); choose another path")
            }
        }
    }

    /// The absolute path with `.`/`..` and symlinks of the existing part resolved.
    private static func canonical(_ url: URL) -> String {
        let absolute = url.standardizedFileURL
        var existing = absolute, rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var path = existing.resolvingSymlinksInPath()
        for part in rest { path.appendPathComponent(part) }
        return path.path
    }

    private static func identity(_ url: URL) -> Identity? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
