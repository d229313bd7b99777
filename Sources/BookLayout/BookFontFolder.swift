import Foundation
import BookBase
import BookResolve

/// The book's own fonts as fontconfig is given them: copies of the files `BookFonts` checked, in
/// a folder of the cache named by their content. fontconfig opens only these copies, never a path
/// in the book's folder, which could have been swapped for a link to another file since the
/// check; and its scan of the folder is cached like the font set's (see `FontSetDirectory`).
///
/// Each copy is read from the descriptor the font was checked through, and must be the bytes that
/// were checked. Made under a temporary name and renamed into place, so concurrent
/// runs never see half a folder.
enum BookFontFolder {
    /// The folder for `fonts` under `base` (made when missing), and the path in the book's folder
    /// each copy stands for, by the copy's path.
    static func prepare(_ fonts: BookFonts, under base: URL) throws -> (folder: URL, originals: [String: String]) {
        let names = fonts.fonts.enumerated().map { i, font in
            String(format: "%03d-", i) + (font.file.path as NSString).lastPathComponent
        }
        let key = SHA256()
        for (name, font) in zip(names, fonts.fonts) { key.update(Data("\(name)\n\(font.sha256)\n".utf8)) }
        let folder = base.appendingPathComponent("bookfonts-\(key.finish().prefix(24))").standardizedFileURL
        var originals: [String: String] = [:]
        for (name, font) in zip(names, fonts.fonts) {
            originals[folder.appendingPathComponent(name).path] = font.file.url.path
        }
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: base, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        } catch {
            throw FontLibraryError.fontconfig("cannot keep the book's fonts in \(base.path): \(error.localizedDescription); set XDG_CACHE_HOME to a folder that can be written")
        }
        try requirePrivate(base)
        if fm.fileExists(atPath: folder.path) {
            try requirePrivate(folder)
            return (folder, originals)
        }

        let staging = base.appendingPathComponent(".bookfonts-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        } catch {
            throw FontLibraryError.fontconfig("cannot keep the book's fonts in \(base.path): \(error.localizedDescription); set XDG_CACHE_HOME to a folder that can be written")
        }
        defer { try? fm.removeItem(at: staging) }
        for (name, font) in zip(names, fonts.fonts) {
            try copy(font, to: staging.appendingPathComponent(name))
        }
        // Another process may have won the race; its folder holds the same bytes.
        if rename(staging.path, folder.path) != 0 && !fm.fileExists(atPath: folder.path) {
            throw FontLibraryError.fontconfig("cannot keep the book's fonts in \(folder.path): \(String(cString: strerror(errno)))")
        }
        return (folder, originals)
    }

    /// The copies are trusted as the book's fonts only in a folder that nobody else could have
    /// filled: the cache falls back to the shared temporary directory when there is no home.
    private static func requirePrivate(_ folder: URL) throws {
        var status = stat()
        guard lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
              status.st_uid == getuid(), status.st_mode & 0o022 == 0 else {
            throw FontLibraryError.fontconfig("\(folder.path) is not a folder of yours that only you can write, so the book's fonts are not kept there; set XDG_CACHE_HOME to one that is")
        }
    }

    private static func copy(_ font: BookFonts.Font, to target: URL) throws {
        let changed = ResolveError("book font \(font.file.path) changed while the book was rendering; render again once nothing is changing the book's folder")
        let source = font.opened
        let out = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard out >= 0 else {
            throw FontLibraryError.fontconfig("cannot write \(target.path): \(String(cString: strerror(errno)))")
        }
        defer { close(out) }
        let hash = SHA256()
        let block = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: block, alignment: 64)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let got = pread(source.descriptor, buffer, block, off_t(total))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            hash.update(UnsafeRawBufferPointer(start: buffer, count: got))
            var written = 0
            while written < got {
                let put = write(out, buffer + written, got - written)
                if put < 0 && errno == EINTR { continue }
                guard put > 0 else {
                    throw FontLibraryError.fontconfig("cannot write \(target.path): \(String(cString: strerror(errno)))")
                }
                written += put
            }
            total += got
        }
        guard total == source.identity.size, hash.finish() == font.sha256 else { throw changed }
    }
}
