import Foundation
import BookBase

/// No output may be an input of the same run (the book, one of its pictures) or another output
/// of it: compared by resolved path and, for files that exist, by file identity, so a hard link
/// or a symlink to the book is caught as well as its own name. And an existing file is replaced
/// only by one of its own kind: a PDF by a PDF, a page PNG by a PNG, a report by JSON, so a
/// mistyped path never turns someone's photo or spreadsheet into a PDF. Nor is a read-only file
/// replaced, unless the run is forced.
struct OutputPaths {
    private struct Identity: Hashable { var device: UInt64; var inode: UInt64 }

    /// What an output holds, told by the first bytes of a file already there.
    enum Kind {
        case pdf, png, json, epub
        /// Another command's output, named only so that no second output lands on it; its own
        /// writer checks what may be replaced.
        case any

        var name: String {
            switch self {
            case .any: "a file"
            case .pdf: "a PDF"
            case .png: "a PNG image"
            case .json: "a JSON file"
            case .epub: "an EPUB"
            }
        }

        func matches(_ head: [UInt8]) -> Bool {
            switch self {
            case .any: true
            case .pdf: head.starts(with: Array("%PDF-".utf8))
            case .png: head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            case .json: head.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
            // A ZIP whose first entry is the stored `mimetype` of an EPUB.
            case .epub: head.starts(with: [0x50, 0x4B, 0x03, 0x04]) && head.count >= 58
                && Array(head[30..<58]) == Array("mimetypeapplication/epub+zip".utf8)
            }
        }
    }

    private var inputs: [(name: String, path: String, identity: Identity?)] = []
    private var outputs: [(name: String, path: String, identity: Identity?)] = []
    private var kinds: [(name: String, url: URL, kind: Kind)] = []
    /// Folders a page set is written into: any page or spread name there may become a page.
    private var pageFolders: [String] = []

    mutating func input(_ url: URL, as name: String) {
        inputs.append((name, Self.canonical(url), Self.identity(url)))
    }

    mutating func output(_ url: URL, as name: String, kind: Kind) {
        outputs.append((name, Self.canonical(url), Self.identity(url)))
        kinds.append((name, url, kind))
    }

    /// The PNG folder and the files of the previous set there that a new one replaces or removes
    /// (see `PageSetOutput`): the pages and spreads showing a page `showing` accepts, all when nil.
    mutating func pageSet(in folder: URL, showing: ((Int) -> Bool)?) {
        pageFolders.append(Self.canonical(folder))
        for name in PageSetOutput.oldFiles(in: folder, showing: showing) {
            output(folder.appendingPathComponent(name), as: "a page PNG", kind: .png)
        }
    }

    /// Fails when an output is an input or another output, is a file of another kind, or is a
    /// read-only file (unless `replacingReadOnly`).
    func verify(replacingReadOnly: Bool = false) throws(BookRenderError) {
        for (i, out) in outputs.enumerated() {
            func same(_ other: (name: String, path: String, identity: Identity?)) -> Bool {
                other.path == out.path || (out.identity != nil && other.identity == out.identity)
            }
            if let input = inputs.first(where: same) {
                throw BookRenderError(.unwritableOutput,
                    "\(out.name) \(out.path) is \(input.name), an input of this run; choose another path")
            }
            if kinds[i].kind != .any, let found = Self.otherKind(at: kinds[i].url, than: kinds[i].kind) {
                throw BookRenderError(.unwritableOutput,
                    "\(out.name) \(kinds[i].url.path) exists and is \(found), not \(kinds[i].kind.name); bookrender replaces only what it wrote — move it away or choose another path")
            }
            let url = URL(fileURLWithPath: out.path)
            if out.name != "a page PNG", PageFileName.pagesShown(by: url.lastPathComponent) != nil,
               pageFolders.contains(url.deletingLastPathComponent().path) {
                throw BookRenderError(.unwritableOutput, "\(out.name) \(out.path) is named as a page PNG of this export; choose another path")
            }
            if let other = outputs[..<i].first(where: same) {
                throw BookRenderError(.unwritableOutput, "\(out.name) \(out.path) is also \(other.name); choose another path")
            }
        }
        for out in kinds where out.kind != .any {
            do { try AtomicOutput.checkReplaceable(out.url, as: out.name, replacing: replacingReadOnly) } catch {
                throw BookRenderError(error)
            }
        }
    }

    /// What stands at `url` when it is not an empty or absent file of `kind`.
    private static func otherKind(at url: URL, than kind: Kind) -> String? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        default: return "a device or pipe"
        }
        guard info.st_size > 0 else { return nil }
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return "a file bookrender cannot read" }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
        return kind.matches(head) ? nil : "another kind of file"
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
