import Foundation

/// Tells when files in some folders change, through Linux's inotify; a folder watched with all
/// below it has the folders made in it later watched too. Editors save in several steps (a backup,
/// a new file renamed over the old, a swap file), so changes are gathered until the folders have
/// been quiet for a moment and handed over together, once per save.
public final class FolderWatcher {
    private let fd: Int32
    private var folders: [Int32: String] = [:]
    private var recursiveFolders: Set<Int32> = []
    private var watched: Set<String> { Set(folders.values) }
    private let ignored: [String]

    /// `ignoring`: folders whose changes do not count (the output folder, when it lies inside a
    /// watched one).
    public init(ignoring: [URL] = []) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw OutputError("cannot watch for changes: \(OutputError.systemReason())") }
        ignored = ignoring.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
    }

    /// Watches `folders` too (those inside them as well, when `recursive`); a folder already
    /// watched is left as it is, and one that does not exist is skipped.
    public func watch(_ folders: [URL], recursive: Bool) throws {
        for folder in Set(folders.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }).sorted()
        where !watched.contains(folder) && FileManager.default.fileExists(atPath: folder) {
            try add(folder, recursive: recursive)
        }
    }

    deinit { close(fd) }

    /// The paths that changed (files made, written, moved in or out, removed), sorted, once
    /// `quiet` seconds pass without another change; waits as long as it takes for the first.
    public func nextChanges(quiet: Double = 0.1) -> [String] {
        var changed = Set<String>(), made = Set<String>()
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let timeout: Int32 = changed.isEmpty ? -1 : Int32(quiet * 1000)
            let ready = poll(&poller, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 {
                // A file made and renamed away or removed within one save (an editor's new copy,
                // renamed over the old) was never part of the book.
                return changed.filter { !made.contains($0) || access($0, F_OK) == 0 }.sorted()
            }
            readEvents(into: &changed, made: &made)
        }
    }

    private func add(_ folder: String, recursive: Bool) throws {
        guard !isIgnored(folder) else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ONLYDIR)
        let wd = inotify_add_watch(fd, folder, mask)
        guard wd >= 0 else { throw OutputError("cannot watch \(folder) for changes: \(OutputError.systemReason())") }
        folders[wd] = folder
        guard recursive else { return }
        recursiveFolders.insert(wd)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in entries.sorted() where !name.hasPrefix(".") {
            let path = folder + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { try add(path, recursive: true) }
        }
    }

    private func isIgnored(_ path: String) -> Bool {
        ignored.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    private func readEvents(into changed: inout Set<String>, made: inout Set<String>) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let got = read(fd, buffer, capacity)
            guard got > 0 else { return }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= got {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size)
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                guard let folder = folders[event.wd], !name.isEmpty else { continue }
                let path = folder + "/" + name
                if event.mask & UInt32(IN_ISDIR) != 0 {
                    if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.hasPrefix("."), recursiveFolders.contains(event.wd) {
                        try? add(path, recursive: true)
                    }
                    continue
                }
                // Editors' swap, backup and probe files are not the book's.
                guard !name.hasPrefix("."), !name.hasSuffix("~"), !name.hasSuffix(".swp"), name != "4913",
                      !isIgnored(path) else { continue }
                changed.insert(path)
                if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { made.insert(path) }
            }
        }
    }
}
