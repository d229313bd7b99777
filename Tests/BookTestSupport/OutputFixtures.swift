import Foundation

/// What tests of outputs need: a book that takes a while to export, the state of an output folder,
/// the temporaries a run may leave, and file systems that refuse writes.
public enum OutputFixtures {
    /// The sample memoir's pages `copies` times over (ids made unique) in a new folder with its
    /// pictures: long enough that an export can be stopped half-way.
    public static func sizeableMemoir(copies: Int = 8) throws -> URL {
        let dir = try temporaryDirectory("sizeable")
        let sample = Repository.samples.appendingPathComponent("memoir")
        try FileManager.default.copyItem(at: sample.appendingPathComponent("images"), to: dir.appendingPathComponent("images"))
        var book = try JSONSerialization.jsonObject(with: Data(contentsOf: sample.appendingPathComponent("book.json"))) as! [String: Any]
        let pages = book["pages"] as! [[String: Any]]
        book["pages"] = (0..<copies).flatMap { copy in
            pages.map { page -> [String: Any] in
                var page = page
                if let id = page["id"] as? String { page["id"] = "\(id)-\(copy)" }
                return page
            }
        }
        try JSONSerialization.data(withJSONObject: book).write(to: dir.appendingPathComponent("book.json"))
        return dir.appendingPathComponent("book.json")
    }

    /// Every file of `folder` (not in folders inside it) with its bytes, hidden ones included.
    public static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// The temporaries a bookrender run leaves in `folders` (`.NAME.partial-…`, `.pages.partial-…`)
    /// and, for the process `pid`, in its temporary folder (`bookrender-PID-…`): `scratch`, or the
    /// shared one when nil. Give a process under test its own (`privateScratch`): on a busy machine
    /// PIDs wrap, and a shared folder may hold what a killed process with the same PID left.
    public static func temporaries(in folders: [URL], process pid: pid_t? = nil, scratch: URL? = nil) -> [String] {
        var found: [String] = []
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.contains(".partial-") {
                found.append(folder.appendingPathComponent(name).path)
            }
        }
        if let pid {
            let tmp = scratch ?? FileManager.default.temporaryDirectory
            for name in (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? [] where name.hasPrefix("bookrender-\(pid)-") {
                found.append(tmp.appendingPathComponent(name).path)
            }
        }
        return found.sorted()
    }

    /// A new temporary folder for `process` alone (its `TMPDIR`), set before it runs.
    public static func privateScratch(for process: Process) throws -> URL {
        let dir = try temporaryDirectory("scratch")
        var environment = process.environment ?? ProcessInfo.processInfo.environment
        environment["TMPDIR"] = dir.path
        process.environment = environment
        return dir
    }

    /// Waits until `condition` holds or `process` has ended; whether it holds.
    public static func wait(for process: Process, until condition: () -> Bool) -> Bool {
        while process.isRunning {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }

    /// A new tmpfs of `kilobytes` mounted on a new folder, or nil where mounting is not allowed
    /// (not root, or a container without the capability). Unmount it with `unmount`.
    public static func mountTmpfs(kilobytes: Int) throws -> URL? {
        let dir = try temporaryDirectory("tmpfs")
        guard getuid() == 0, let r = try? run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", dir.path]),
              r.status == 0 else {
            try? FileManager.default.removeItem(at: dir)
            return nil
        }
        return dir
    }

    public static func remountReadOnly(_ dir: URL) throws {
        let r = try run("/bin/mount", ["-o", "remount,ro", dir.path])
        guard r.status == 0 else { throw ToolError("cannot remount \(dir.path) read-only: \(r.stderr)") }
    }

    public static func unmount(_ dir: URL) {
        _ = try? run("/bin/umount", [dir.path])
        try? FileManager.default.removeItem(at: dir)
    }

    /// Whether this machine can mount a tmpfs here (tests of full and read-only disks need one).
    public static let canMountTmpfs: Bool = {
        guard let dir = try? mountTmpfs(kilobytes: 64) else { return false }
        unmount(dir)
        return true
    }()

    /// The arguments that run `program` so that a folder's permission bits hold for it: when the
    /// tests run as root, as root without the capabilities that let root write anywhere (so the
    /// checkout and the caches stay its own); as themselves otherwise.
    public static func unprivileged(_ program: String, _ arguments: [String]) -> (String, [String]) {
        guard getuid() == 0 else { return (program, arguments) }
        return ("/usr/bin/setpriv", ["--bounding-set=-dac_override,-dac_read_search", "--", program] + arguments)
    }

    /// A new folder whose mode lets no one write into it (0555), for `unprivileged` runs.
    public static func unwritableFolder() throws -> URL {
        let dir = try temporaryDirectory("unwritable")
        chmod(dir.path, 0o555)
        return dir
    }
}
