import Foundation

/// A JPEG file's header, read without the image data: cairo needs only that to embed the file, and
/// the resolver only that (and the file's last two bytes) to probe it.
public enum JPEGHeader {
    /// Reads the file's header into `buffer` and returns its length: every marker segment from
    /// SOI to the end of the first SOS segment header. Nil when the markers do not parse, or
    /// the header does not end within `count` bytes. Reads ahead `step` bytes at a time.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, step: Int = 65_536) -> Int? {
        let b = buffer.assumingMemoryBound(to: UInt8.self)
        var filled = 0
        // Makes bytes 0..<n readable.
        func have(_ n: Int) -> Bool {
            guard n <= count else { return false }
            if filled < n { filled = fill(fd, buffer, from: filled, to: min(count, max(n, filled + step))) }
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
    public static func fill(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, from: Int, to: Int) -> Int {
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
