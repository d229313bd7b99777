import Foundation
import CShim

/// Copies the pictures passed through into the PDF, in the kernel where it can (copy_file_range),
/// on a thread of its own while cairo goes on writing the pages after them. `PDFSink` leaves a hole
/// the picture's size where it goes and queues the copy; the file is complete once `finish`
/// returns. With one worker, `copyHere` does the same on the caller's thread.
///
/// For a PDF that will replace an older file, each picture's writeback is started as soon as it is
/// copied (`sync_file_range`, no waiting for the disk): left to the end, ext4 (`auto_da_alloc`)
/// allocates and submits the whole file when the finished PDF is renamed over the older one, on
/// the thread that renames, in one piece at the end; here it is spread over the copies, beside the
/// drawing. A new file is left to the kernel's writeback, as any other write: started here, it
/// only made the export wait for the disk.
final class ImageCopier: @unchecked Sendable {
    /// Copies queued and not yet done at most; `copy` waits for room beyond that, so a book of
    /// thousands of pictures never holds thousands of open descriptors.
    static let maximumPending = 8

    private struct Job {
        var source: Int32
        var origin: String
        var length: Int
        var offset: off_t
    }

    private let output: Int32
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private var started = false
    private var busy = false
    private var ended = false
    private var firstFailure: CopyFailure?
    /// Cleared once the kernel refuses to copy between these files (another file system).
    private var kernelCopies = true

    private let startsWriteback: Bool

    /// `output`: the descriptor of the PDF, open for writing for as long as the copier is used.
    /// `replacing`: the PDF will be renamed over an existing file.
    init(output: Int32, replacing: Bool) {
        self.output = output
        startsWriteback = replacing
    }

    /// Queues `length` bytes of `descriptor` (from its start) for `offset` in the PDF. False when
    /// the descriptor cannot be kept (no descriptor left): the caller copies the bytes itself.
    func copy(from descriptor: Int32, origin: String, length: Int, to offset: off_t) -> Bool {
        // A descriptor of our own: the picture's own is closed once cairo is done with it,
        // which may be before the copy.
        let source = dup(descriptor)
        guard source >= 0 else { return false }
        condition.lock()
        while queue.count - head >= Self.maximumPending { condition.wait() }
        queue.append(Job(source: source, origin: origin, length: length, offset: offset))
        condition.broadcast()
        let start = !started
        started = true
        condition.unlock()
        if start { Thread.detachNewThread { self.run() } }
        return true
    }

    /// The first copy that failed so far, if any: the sink stops taking pages once one has.
    var failure: CopyFailure? {
        condition.lock()
        defer { condition.unlock() }
        return firstFailure
    }

    /// Copies on the calling thread, once the copies queued are done; the failure's message, if any.
    func copyHere(from descriptor: Int32, origin: String, length: Int, to offset: off_t) -> CopyFailure? {
        condition.lock()
        while head < queue.count || busy { condition.wait() }
        condition.unlock()
        return transfer(Job(source: descriptor, origin: origin, length: length, offset: offset))
    }

    /// Waits for every copy queued and ends the thread; the first failure's message, if any.
    /// Nothing may be queued afterwards.
    func finish() -> CopyFailure? {
        condition.lock()
        defer { condition.unlock() }
        while head < queue.count || busy { condition.wait() }
        ended = true
        condition.broadcast()
        return firstFailure
    }

    private func run() {
        condition.lock()
        while true {
            while head == queue.count && !ended { condition.wait() }
            if head == queue.count { break }
            let job = queue[head]
            head += 1
            if head == queue.count { queue.removeAll(keepingCapacity: true); head = 0 }
            busy = true
            let skip = firstFailure != nil
            condition.broadcast()
            condition.unlock()

            let problem = skip ? nil : transfer(job)
            close(job.source)

            condition.lock()
            if firstFailure == nil { firstFailure = problem }
            busy = false
            condition.broadcast()
        }
        condition.unlock()
    }

    /// The copy itself: copy_file_range, or reads and writes where the kernel cannot copy.
    private func transfer(_ job: Job) -> CopyFailure? {
        var from: off_t = 0
        var to = job.offset
        var remaining = job.length
        while remaining > 0 && kernelCopies {
            let copied = shim_copy_file_range_at(job.source, &from, output, &to, remaining)
            if copied > 0 { remaining -= copied; continue }
            if copied < 0 && errno == EINTR { continue }
            if copied < 0 && [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF].contains(errno) {
                kernelCopies = false
                break
            }
            // The kernel's copy fails for either file; these errors can only be the PDF's.
            if copied < 0 && [ENOSPC, EDQUOT, EFBIG].contains(errno) { return .writing(String(cString: strerror(errno))) }
            return .reading(Self.message(copied, job.origin))
        }
        if remaining > 0, let problem = readAndWrite(job, from: from, remaining: remaining) { return problem }
        // Only a hint to the kernel; a file system that has no use for it may refuse it.
        if startsWriteback { _ = shim_start_writeback(output, job.offset, off_t(job.length)) }
        return nil
    }

    private func readAndWrite(_ job: Job, from: off_t, remaining: Int) -> CopyFailure? {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: min(remaining, chunk), alignment: 16)
        defer { buffer.deallocate() }
        var done = 0
        while done < remaining {
            let got = pread(job.source, buffer, min(chunk, remaining - done), from + off_t(done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return .reading(Self.message(got, job.origin)) }
            var written = 0
            while written < got {
                let put = pwrite(output, buffer + written, got - written, job.offset + from + off_t(done + written))
                if put < 0 && errno == EINTR { continue }
                guard put > 0 else { return .writing(String(cString: strerror(put == 0 ? ENOSPC : errno))) }
                written += put
            }
            done += got
        }
        return nil
    }

    static func message(_ result: Int, _ origin: String) -> String {
        result == 0
            ? "\(origin) got shorter while it was copied into the PDF; render again once the file is complete"
            : "reading \(origin): \(String(cString: strerror(errno)))"
    }
}

/// Why the PDF could not be made: a picture could not be read (a problem with an input), or the
/// PDF could not be written (a full disk, a quota: a problem with the output), in the system's words.
enum CopyFailure: Sendable, Equatable {
    case reading(String)
    case writing(String)
}
