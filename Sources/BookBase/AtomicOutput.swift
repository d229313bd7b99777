import Foundation

/// Writes go to a hidden temporary file beside the target and are renamed over it only when
/// complete, so an interrupted run (even kill -9) leaves either the old file or the new one,
/// never half of one. Used for every file bookrender writes: PDFs, PNGs, journals, books, caches.
///
/// Temporary files are recorded in `TemporaryFiles` while they exist, so a program stopped by a
/// signal can remove them. Errors are `OutputError`s naming the target and the system's reason.
public enum AtomicOutput {
    /// Unique per call, so two threads writing the same target never share a temporary file:
    /// `.NAME.partial-PID-N` beside the target, which is how a batch finds a crashed job's.
    public static func temporaryPath(for target: URL) -> URL {
        target.deletingLastPathComponent()
            .appendingPathComponent(temporaryPrefix(for: target) + "\(UInt32.random(in: 0...UInt32.max))")
    }

    /// The start of the names of the temporary files process `pid` writes `target` through.
    public static func temporaryPrefix(for target: URL, process pid: pid_t = getpid()) -> String {
        ".\(target.lastPathComponent).partial-\(pid)-"
    }

    /// Calls `body` with a new, empty temporary file to fill, then puts it in place of `target`.
    /// A target that is a device or a pipe (`/dev/stdout`, `/dev/full`, or a link to one) is
    /// written into instead, from a temporary file in the temporary folder: renaming over it
    /// would replace the device with a file.
    public static func write(to target: URL, _ body: (URL) throws -> Void) throws {
        switch try kind(of: target) {
        case .stream:
            try TemporaryFiles.withScratchFile(target.lastPathComponent) { tmp in
                try body(tmp)
                try copy(tmp, into: target)
            }
        case .file:
            let tmp = temporaryPath(for: target)
            let token = try TemporaryFiles.createFile(tmp.path, for: target)
            defer { TemporaryFiles.forget(token) }
            do {
                try body(tmp)
                guard rename(tmp.path, target.path) == 0 else {
                    throw OutputError("cannot move the finished file into place at \(target.path): \(OutputError.systemReason())")
                }
            } catch {
                unlink(tmp.path)
                throw error
            }
        }
    }

    /// `data` to `target`, creating its folder first. Throws `OutputError`.
    public static func write(_ data: Data, to target: URL) throws {
        try makeFolder(target.deletingLastPathComponent())
        try write(to: target) { tmp in try writeAll(data, to: tmp, naming: target) }
    }

    /// Calls `body` with a temporary file beside `target` (recorded while it exists, removed
    /// afterwards), for the intermediate files of a conversion.
    public static func withTemporaryFile<T>(for target: URL, suffix: String, _ body: (URL) throws -> T) throws -> T {
        if kind(ofExisting: target) == .stream {
            return try TemporaryFiles.withScratchFile(target.lastPathComponent + "." + suffix, body)
        }
        let tmp = temporaryPath(for: target).appendingPathExtension(suffix)
        let token = try TemporaryFiles.createFile(tmp.path, for: target)
        defer { unlink(tmp.path); TemporaryFiles.forget(token) }
        return try body(tmp)
    }

    /// Creates `folder` and its parents when missing. Throws `OutputError`.
    public static func makeFolder(_ folder: URL) throws {
        var path = ""
        for part in folder.standardizedFileURL.path.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + part
            if mkdir(path, 0o777) == 0 { continue }
            let code = errno
            var info = stat()
            if code == EEXIST, stat(path, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFDIR { continue }
                throw OutputError("cannot create the folder \(folder.path): \(OutputError.systemReason(ENOTDIR)) (\(path) is a file)")
            }
            throw OutputError("cannot create the folder \(folder.path): \(OutputError.systemReason(code))")
        }
    }

    /// Refuses to replace `target` when it is a read-only file (its owner may not write it, or this
    /// user may not), unless `replacing`. The mode is read rather than asking `access`, which says
    /// yes to root for any file. `name` says what it is in the message ("the PDF").
    public static func checkReplaceable(_ target: URL, as name: String, replacing: Bool) throws {
        guard !replacing, let reason = readOnlyReason(target) else { return }
        throw OutputError("\(name) \(target.path) is \(reason); make it writable, or pass --force to replace it")
    }

    /// Why `url`, a regular file, may not be written: "read-only" when its owner may not write
    /// it, the system's words when this user may not; nil when it may be, or is not a file.
    public static func readOnlyReason(_ url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        if info.st_mode & S_IWUSR == 0 { return "read-only" }
        if access(url.path, W_OK) != 0 { return "not writable (\(OutputError.systemReason()))" }
        return nil
    }

    /// What went wrong in a Foundation file operation, in the system's words where it has them,
    /// never as Foundation's error domain and number.
    public static func reason(_ error: Error) -> String {
        if let output = error as? OutputError { return output.message }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return OutputError.systemReason(Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return OutputError.systemReason(Int32(underlying.code))
        }
        if ns.domain == NSCocoaErrorDomain, let code = posixCode(cocoa: ns.code) { return OutputError.systemReason(code) }
        return ns.domain == NSCocoaErrorDomain ? "the file operation failed" : ns.localizedDescription
    }

    private static func posixCode(cocoa code: Int) -> Int32? {
        switch CocoaError.Code(rawValue: code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: EACCES
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        case .fileWriteFileExists: EEXIST
        case .fileReadTooLarge: EFBIG
        case .fileWriteInvalidFileName, .fileReadInvalidFileName: EINVAL
        default: nil
        }
    }

    // MARK: - What the target is

    private enum Kind { case file, stream }

    private static func kind(of target: URL) throws -> Kind {
        var info = stat()
        guard stat(target.path, &info) == 0 else { return .file }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw OutputError("cannot write \(target.path): \(OutputError.systemReason(EISDIR))")
        case S_IFBLK: throw OutputError("cannot write \(target.path): it is a disk device, not a file")
        case S_IFCHR, S_IFIFO, S_IFSOCK: return .stream
        default: return .file
        }
    }

    private static func kind(ofExisting target: URL) -> Kind { (try? kind(of: target)) ?? .file }

    /// The bytes of `file` written into the device or pipe `target`.
    private static func copy(_ file: URL, into target: URL) throws {
        let input = open(file.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw OutputError.cannotWrite(target) }
        defer { close(input) }
        let output = open(target.path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard output >= 0 else { throw OutputError.cannotWrite(target) }
        defer { close(output) }
        let size = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let got = read(input, buffer, size)
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw OutputError.cannotWrite(target) }
            if got == 0 { return }
            try writeAll(UnsafeRawBufferPointer(start: buffer, count: got), to: output, naming: target)
        }
    }

    /// Writes `data` to the existing file `path`, replacing what it holds. Errors name `target`.
    private static func writeAll(_ data: Data, to path: URL, naming target: URL) throws {
        let fd = open(path.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError.cannotWrite(target) }
        do {
            try data.withUnsafeBytes { try writeAll($0, to: fd, naming: target) }
        } catch {
            close(fd)
            throw error
        }
        // A full disk or a quota may show only when the file is closed (NFS, FUSE).
        guard close(fd) == 0 else { throw OutputError.cannotWrite(target) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, naming target: URL) throws {
        var done = 0
        while done < bytes.count {
            let put = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if put < 0 && errno == EINTR { continue }
            guard put > 0 else { throw OutputError.cannotWrite(target, put == 0 ? ENOSPC : errno) }
            done += put
        }
    }
}
