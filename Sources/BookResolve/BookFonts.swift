import Foundation
import BookBase

/// The fonts a book brings in the `fonts/` folder beside its book.json, each one checked to be a
/// regular file inside the book's folder and hashed from the descriptor it was checked through.
/// Layout hands fontconfig copies of the bytes of that descriptor (see `BookFontFolder` in
/// BookLayout), never a path in the book's folder, which could be swapped for a link after the
/// check.
public struct BookFonts: Sendable {
    public struct Font: Sendable {
        public let file: CheckedFile
        /// The descriptor the font was checked through, kept open: the copy fontconfig is given is
        /// read from it, not from the book's folder again.
        public let opened: OpenedFile
        /// SHA-256 of the bytes checked.
        public let sha256: String
    }

    public var fonts: [Font]

    public static let none = BookFonts(fonts: [])

    /// The file names taken for fonts; anything else in the folder is left alone, unopened.
    static let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2", "pfa", "pfb"]
    static let folderName = "fonts"
    /// Folders inside `fonts/` looked into, at most this deep.
    static let maximumDepth = 8

    /// The fonts in the book's `fonts/` folder (and the folders inside it), and a warning naming
    /// each entry that was refused: a symbolic link (wherever it leads), something that is not a
    /// regular file (a FIFO, a device), a file that cannot be read. Warned about rather than
    /// refused: the book still renders, in the fallback faces, and `validate` names each one.
    static func scan(_ root: BookFolder) -> (BookFonts, [Finding]) {
        var scan = Scan(root: root)
        scan.folder(folderName, depth: 0)
        return (BookFonts(fonts: scan.fonts), scan.findings)
    }

    private struct Scan {
        let root: BookFolder
        var fonts: [Font] = []
        var findings: [Finding] = []
        var seenFolders = Set<[UInt64]>()

        mutating func folder(_ path: String, depth: Int) {
            let fd: Int32
            do throws(BookFolder.Refusal) { fd = try root.openFolder(path) } catch {
                if error != .missing || depth > 0 { refuse(path, error, as: .folder) }
                return
            }
            defer { close(fd) }
            var status = stat()
            guard fstat(fd, &status) == 0, seenFolders.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { return }
            guard depth < BookFonts.maximumDepth else {
                warn("fonts folder \(path) is more than \(BookFonts.maximumDepth) folders deep; its fonts are not used")
                return
            }
            for (name, type) in Self.entries(fd) {
                let entry = path + "/" + name
                switch type {
                case S_IFDIR:
                    folder(entry, depth: depth + 1)
                case S_IFREG:
                    if Self.isFontName(name) { font(entry) }
                case S_IFLNK:
                    // Not followed, wherever it leads: named, so the author knows why a face is missing.
                    let refusal: BookFolder.Refusal
                    do throws(BookFolder.Refusal) { _ = try root.openFile(entry); refusal = .changed } catch { refusal = error }
                    refuse(entry, refusal, as: Self.isFontName(name) ? .font : .entry)
                default:
                    if Self.isFontName(name) {
                        refuse(entry, .notA(expected: "a file", found: BookFolder.kind(type)), as: .font)
                    }
                }
            }
        }

        mutating func font(_ path: String) {
            do throws(BookFolder.Refusal) {
                let opened = try root.openFile(path)
                let hash = SHA256()
                guard hash.update(descriptor: opened.descriptor) == opened.identity.size else {
                    return refuse(path, .changed, as: .font)
                }
                fonts.append(Font(file: CheckedFile(folder: root, path: path, opened: opened), opened: opened, sha256: hash.finish()))
            } catch {
                refuse(path, error, as: .font)
            }
        }

        enum Entry: String {
            case font = "book font", folder = "fonts folder", entry = "entry of the fonts folder"
        }

        mutating func refuse(_ path: String, _ refusal: BookFolder.Refusal, as entry: Entry) {
            let why = refusal.reason(for: path)
            let outcome = entry == .folder ? "its fonts are not used" : "not used"
            warn("\(entry.rawValue) \(path) \(why); \(outcome) (put the font files themselves in the book's fonts/ folder)")
        }

        mutating func warn(_ message: String) {
            findings.append(Finding(.warning, .other, message))
        }

        static func isFontName(_ name: String) -> Bool {
            BookFonts.extensions.contains((name as NSString).pathExtension.lowercased())
        }

        /// The folder's entries and their types as the folder holds them (links not followed),
        /// sorted by name so the font set does not depend on the order of the directory.
        static func entries(_ folder: Int32) -> [(String, mode_t)] {
            let copy = dup(folder)
            guard copy >= 0, let dir = fdopendir(copy) else {
                if copy >= 0 { close(copy) }
                return []
            }
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            return names.sorted().compactMap { name in
                var status = stat()
                guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                return (name, status.st_mode & S_IFMT)
            }
        }
    }
}
