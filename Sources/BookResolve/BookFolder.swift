import Foundation
import CShim

/// The book's folder, opened once: every file of the book (its images, its fonts) is opened
/// beneath this descriptor and then read from its own descriptor, never looked up by a path that
/// could have been swapped for a symbolic link between a check and the open.
///
/// No symbolic link below the folder is followed, wherever it leads: the kernel refuses them with
/// openat2's `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`; where it has no openat2, the path is walked
/// one component at a time (`openat` with `O_NOFOLLOW`, `..` never climbing above the folder).
/// Only regular files are opened for reading: a FIFO or a device is looked at through an `O_PATH`
/// descriptor, which opens nothing, and refused.
public final class BookFolder: @unchecked Sendable {
    public let url: URL
    private let descriptor: Int32
    /// Why the folder itself could not be opened (0 when it was).
    private let openError: Int32
    /// openat2 is used; false: the path is walked here.
    let kernelConfines: Bool

    /// Why a path of the book was not opened.
    public enum Refusal: Error, Equatable, Sendable {
        case missing
        /// `..` climbing above the book's folder.
        case outside
        /// `path` (the path asked for, or a folder on the way to it) is a symbolic link to `target`.
        case link(path: String, target: String)
        /// Something other than what was asked for: "a FIFO (named pipe)", "a folder"…
        case notA(expected: String, found: String)
        /// Replaced by something else while it was being opened.
        case changed
        case unreadable(reason: String)
    }

    public convenience init(_ url: URL) {
        self.init(url, kernelConfines: Self.kernelHasOpenat2)
    }

    /// `kernelConfines` false walks every path here even where openat2 exists (for tests).
    init(_ url: URL, kernelConfines: Bool) {
        self.url = url
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        descriptor = fd
        openError = fd < 0 ? errno : 0
        self.kernelConfines = kernelConfines
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// A sandbox's syscall filter may answer EPERM instead of ENOSYS for a call it does not know.
    static let kernelHasOpenat2: Bool = {
        let fd = shim_open_beneath(AT_FDCWD, ".", shim_o_path())
        if fd >= 0 { close(fd) }
        return !(fd < 0 && (errno == ENOSYS || errno == EPERM))
    }()

    /// `relative` opened for reading, if it is a regular file beneath the folder.
    public func openFile(_ relative: String) throws(Refusal) -> OpenedFile {
        let (fd, status) = try openChecked(relative, S_IFREG, expected: "a file", flags: O_RDONLY | O_NONBLOCK | O_NOCTTY)
        // Non-blocking only so that a FIFO swapped in at the last moment could not hold the open.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return OpenedFile(descriptor: fd, identity: FileIdentity(status))
    }

    /// `relative` opened for listing, if it is a folder beneath the book's folder (the caller
    /// closes the descriptor).
    public func openFolder(_ relative: String) throws(Refusal) -> Int32 {
        try openChecked(relative, S_IFDIR, expected: "a folder", flags: O_RDONLY | O_DIRECTORY).descriptor
    }

    /// Looked at first through an O_PATH descriptor, which opens nothing; then opened for real and
    /// checked to be the file looked at.
    private func openChecked(_ relative: String, _ type: mode_t, expected: String, flags: Int32) throws(Refusal) -> (descriptor: Int32, status: stat) {
        let look = try resolve(relative, flags: shim_o_path())
        var seen = stat()
        let looked = fstat(look, &seen) == 0
        close(look)
        guard looked else { throw Self.refusal(errno) }
        guard seen.st_mode & S_IFMT == type else { throw .notA(expected: expected, found: Self.kind(seen.st_mode)) }
        let fd = try resolve(relative, flags: flags)
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == type,
              status.st_dev == seen.st_dev, status.st_ino == seen.st_ino else {
            close(fd)
            throw .changed
        }
        return (fd, status)
    }

    /// A descriptor for `relative` beneath the folder, through no symbolic link.
    private func resolve(_ relative: String, flags: Int32) throws(Refusal) -> Int32 {
        guard descriptor >= 0 else { throw Self.refusal(openError) }
        guard !relative.hasPrefix("/") else { throw .outside }
        guard kernelConfines else { return try walk(relative, flags: flags) }
        // EAGAIN: a rename elsewhere in the tree raced the lookup; the kernel asks for a retry.
        for _ in 0..<8 {
            let fd = shim_open_beneath(descriptor, relative, flags)
            if fd >= 0 { return fd }
            switch errno {
            case EAGAIN, EINTR: continue
            // Which component is the link, for the message: the walk stops at it.
            case ELOOP:
                let fd = try walk(relative, flags: shim_o_path())
                close(fd)
                throw .changed
            default: throw Self.refusal(errno)
            }
        }
        throw .changed
    }

    /// What openat2 does, one component at a time: each folder is opened beneath the one before
    /// it without following a link (and checked to be a folder, not a link), and `..` goes back to
    /// the folder opened before, never above the book's folder.
    private func walk(_ relative: String, flags: Int32) throws(Refusal) -> Int32 {
        let names = relative.split(separator: "/").map(String.init).filter { $0 != "." }
        var opened: [Int32] = []
        var walked: [String] = []
        defer { opened.forEach { close($0) } }
        for (i, name) in names.enumerated() {
            let here = opened.last ?? descriptor
            if name == ".." {
                guard let top = opened.popLast() else { throw .outside }
                close(top)
                walked.removeLast()
                continue
            }
            walked.append(name)
            let last = i == names.count - 1
            let fd = openat(here, name, (last ? flags : shim_o_path() | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                // O_NOFOLLOW on a link: ELOOP, or ENOTDIR with O_DIRECTORY.
                var status = stat()
                if fstatat(here, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFLNK {
                    throw .link(path: walked.joined(separator: "/"), target: Self.readLink(here, name))
                }
                throw Self.refusal(code)
            }
            var status = stat()
            guard fstat(fd, &status) == 0 else { close(fd); throw Self.refusal(errno) }
            // O_PATH | O_NOFOLLOW opens a link itself rather than failing.
            if status.st_mode & S_IFMT == S_IFLNK {
                close(fd)
                throw .link(path: walked.joined(separator: "/"), target: Self.readLink(here, name))
            }
            if last { return fd }
            opened.append(fd)
        }
        let fd = openat(opened.last ?? descriptor, ".", flags | O_CLOEXEC)
        guard fd >= 0 else { throw Self.refusal(errno) }
        return fd
    }

    /// Where a link points, for messages only: nothing is opened.
    private static func readLink(_ folder: Int32, _ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(folder, name, &buffer, buffer.count - 1)
        guard count >= 0 else { return "?" }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func refusal(_ code: Int32) -> Refusal {
        switch code {
        case ENOENT, ENOTDIR: .missing
        case EXDEV: .outside
        default: .unreadable(reason: String(cString: strerror(code)))
        }
    }

    /// A file type in words, for messages.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }
}

extension BookFolder.Refusal {
    /// Why, in words, after the path's name: "is a symbolic link to …".
    public var reason: String {
        switch self {
        case .missing: "does not exist"
        case .outside: "climbs out of the book's folder with `..`"
        case .link(let path, let target): "goes through \(path), which is a symbolic link (to \(target)); bookrender follows no links in a book's folder"
        case .notA(let expected, let found): "is \(found), not \(expected)"
        case .changed: "was replaced while it was being opened"
        case .unreadable(let reason): "cannot be read (\(reason))"
        }
    }

    /// The reason for `relative`, saying it is the link itself rather than a folder on its way.
    public func reason(for relative: String) -> String {
        if case .link(let path, let target) = self, Self.sameRelative(path, relative) {
            return "is a symbolic link (to \(target)); bookrender follows no links in a book's folder"
        }
        return reason
    }

    private static func sameRelative(_ a: String, _ b: String) -> Bool {
        func parts(_ s: String) -> [Substring] { s.split(separator: "/").filter { $0 != "." } }
        return parts(a) == parts(b)
    }
}
