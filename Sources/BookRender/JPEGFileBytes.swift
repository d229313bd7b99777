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
        guard JPEGHeader.read(fd, into: mapped, count: count) != nil || JPEGHeader.fill(fd, mapped, from: 0, to: count) == count else {
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

}
