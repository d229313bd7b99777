import Foundation
import BookBase
import BookResolve

/// A folder of symbolic links to exactly the manifest's font files, so that fontconfig can add the
/// private font set as a directory and keep its scan in a cache, instead of opening and measuring
/// every file (Noto CJK above all) in every process, which cost most of a small book's export in
/// a batch.
///
/// The folder's name carries a SHA-256 of each file's path, size and modification time, so a font
/// package upgrade makes a new folder and a fresh scan rather than a stale cache. Links are named
/// with the manifest's order first, which is the order fontconfig scans them in. Made under a
/// temporary name and renamed into place, so concurrent runs never see half a folder.
enum FontSetDirectory {
    /// The folder for `files` under `base` (made when missing), or nil when it cannot be made.
    static func prepare(for files: [String], under base: URL) -> URL? {
        let fm = FileManager.default
        let key = SHA256()
        for path in files {
            guard let attributes = try? fm.attributesOfItem(atPath: path),
                  let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date else { return nil }
            key.update(Data("\(path)\n\(size.int64Value)\n\(modified.timeIntervalSince1970)\n".utf8))
        }
        let folder = base.appendingPathComponent("fontset-\(key.finish().prefix(24))")
        if fm.fileExists(atPath: folder.path) { return folder }
        do {
            try fm.createDirectory(at: base, withIntermediateDirectories: true)
            let staging = base.appendingPathComponent(".fontset-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            let token = try TemporaryFiles.createFolder(staging.path, for: staging)
            defer {
                try? fm.removeItem(at: staging)
                TemporaryFiles.forget(token)
            }
            for (i, path) in files.enumerated() {
                let name = String(format: "%03d-", i) + (path as NSString).lastPathComponent
                try fm.createSymbolicLink(atPath: staging.appendingPathComponent(name).path, withDestinationPath: path)
            }
            // Another process may have won the race; its folder is as good as ours.
            if rename(staging.path, folder.path) != 0 && !fm.fileExists(atPath: folder.path) { return nil }
            return folder
        } catch {
            return nil
        }
    }

    /// Where the folders go: the user's cache, or the temporary directory when there is none.
    static func base() -> URL {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("bookrender")
        }
        if let home = env["HOME"], home.hasPrefix("/"), FileManager.default.isWritableFile(atPath: home) {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/bookrender")
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("bookrender-fonts-\(getuid())")
    }
}
