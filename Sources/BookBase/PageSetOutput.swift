import Foundation

/// A folder's page PNGs are replaced as a set: the new pages and spreads are written into a
/// hidden folder inside it (`.pages.partial-PID-N`) and moved in only once all are written, and
/// the previous set's pages and spreads the new one lacks are removed then. A failed or
/// interrupted export leaves the previous set whole; a finished one leaves exactly the new set
/// (for the pages selected, when only some are written). Other files are never touched.
public enum PageSetOutput {
    /// Calls `body` with the staging folder to write the new set into (it returns the files it
    /// wrote there), then puts them in `folder`. `pages`: the physical pages written, when not
    /// all: the old files of the other pages stay. Returns the files in `folder`. Throws `OutputError`.
    public static func write(into folder: URL, pages: Set<Int>? = nil, _ body: (URL) throws -> [URL]) throws -> [URL] {
        try AtomicOutput.makeFolder(folder)
        let staging = folder.appendingPathComponent(stagingPrefix() + "\(UInt32.random(in: 0...UInt32.max))")
        let token = try TemporaryFiles.createFolder(staging.path, for: folder)
        defer {
            try? FileManager.default.removeItem(at: staging)
            TemporaryFiles.forget(token)
        }
        let names: [String]
        do {
            names = try body(staging).map(\.lastPathComponent)
        } catch let error as OutputError {
            // The user knows the folder, not the hidden one the pages are written in first.
            throw OutputError(error.message.replacingOccurrences(of: staging.path, with: folder.path))
        }
        for name in names {
            var info = stat()
            if lstat(folder.appendingPathComponent(name).path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                throw OutputError("cannot write \(folder.appendingPathComponent(name).path): \(OutputError.systemReason(EISDIR))")
            }
        }
        // A run stopped by a signal waits for the set to be whole before it ends.
        try TemporaryFiles.critical {
            for name in names where rename(staging.appendingPathComponent(name).path, folder.appendingPathComponent(name).path) != 0 {
                throw OutputError("cannot move the new \(name) into \(folder.path): \(OutputError.systemReason())")
            }
            let kept = Set(names)
            for name in oldFiles(in: folder, showing: pages.map { pages in pages.contains }) where !kept.contains(name) {
                var info = stat()
                let path = folder.appendingPathComponent(name).path
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(path) }
            }
        }
        return names.map { folder.appendingPathComponent($0) }
    }

    /// The start of the staging folders' names of process `pid`.
    public static func stagingPrefix(process pid: pid_t = getpid()) -> String { ".pages.partial-\(pid)-" }

    /// The names of the old set's files in `folder` that a new set replaces or removes: the pages
    /// and spreads showing a page `showing` accepts (all when nil, every page being written).
    public static func oldFiles(in folder: URL, showing: ((Int) -> Bool)?) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { name in
            guard let shown = PageFileName.pagesShown(by: name) else { return false }
            return showing.map { shown.contains(where: $0) } ?? true
        }.sorted()
    }
}
