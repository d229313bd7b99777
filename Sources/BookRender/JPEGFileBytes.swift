import Foundation
import BookResolve

/// A JPEG file as cairo's PDF backend is given it: a buffer the file's size in which only the
/// header (SOI up to the first scan) has been read. cairo 1.16 parses that header for the image
/// XObject's dictionary (`_cairo_image_info_get_jpeg_info` stops at the frame header) and then
/// hands the whole buffer to the output stream in one write; `PDFSink` knows the buffer and copies
/// those bytes from the file instead, in the kernel. The rest of the buffer is anonymous memory
/// nobody touches, so it costs no page: the pictures are read once (to hash and probe them, when
/// the book is resolved), never held by the process while the PDF is written.
final class JPEGFileBytes {
    let descriptor: Int32
    let count: Int
    let bytes: UnsafeMutableRawPointer

    /// Nil when the file cannot be opened again, has changed size, or cannot be read.
    init?(_ asset: ImageAsset) {
        guard let (fd, count) = asset.openFile(), count > 0 else { return nil }
        guard let mapped = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else {
            close(fd)
            return nil
        }
        // Markers that do not parse as a header: read it all, so cairo sees the file as it is.
        guard Self.readHeader(fd, into: mapped, count: count) != nil || Self.fill(fd, mapped, from: 0, to: count) == count else {
            munmap(mapped, count)
            close(fd)
            return nil
        }
        descriptor = fd
        self.count = count
        bytes = mapped
    }

    deinit {
        munmap(bytes, count)
        close(descriptor)
    }

    /// Reads the file's header into `buffer` and returns its length: every marker segment from
    /// SOI to the end of the first SOS segment header. Nil when the markers do not parse.
    static func readHeader(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int? {
        let b = buffer.assumingMemoryBound(to: UInt8.self)
        var filled = 0
        // Makes bytes 0..<n readable; reads ahead in 64 KiB steps.
        func have(_ n: Int) -> Bool {
            guard n <= count else { return false }
            if filled < n { filled = fill(fd, buffer, from: filled, to: min(count, max(n, filled + 65_536))) }
            return filled >= n
        }
        guard have(2), b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var offset = 2
        while have(offset + 2), b[offset] == 0xFF {
            var m = offset + 1
            while have(m + 1), b[m] == 0xFF { m += 1 }          // fill bytes before a marker
            guard have(m + 1) else { return nil }
            let marker = b[m]
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset = m + 1; continue }   // no length
            guard marker != 0xD8, marker != 0xD9, have(m + 3) else { return nil }
            let length = Int(b[m + 1]) << 8 | Int(b[m + 2])
            guard length >= 2 else { return nil }
            let end = m + 1 + length
            if marker == 0xDA { return have(end) ? end : nil }
            offset = end
        }
        return nil
    }

    /// Reads bytes `from..<to` of the file into the same range of `buffer`; returns where it
    /// stopped (`to`, or earlier at the end of the file or an error).
    private static func fill(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, from: Int, to: Int) -> Int {
        var done = from
        while done < to {
            let got = pread(fd, buffer + done, to - done, off_t(done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return done
    }
}
