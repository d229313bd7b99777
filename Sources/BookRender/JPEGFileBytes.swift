import Foundation
import BookBase
import BookResolve

/// A JPEG file as cairo's PDF backend is given it: a buffer the file's size in which only the
/// header (SOI up to the first scan) has been read. cairo 1.16 parses that header for the image
/// XObject's dictionary (`_cairo_image_info_get_jpeg_info` stops at the frame header) and then
/// hands the whole buffer to the output stream in one write; `PDFSink` knows the buffer and copies
/// those bytes from the file instead, in the kernel. The rest of the buffer is anonymous memory
/// nobody touches, so it costs no page: the pictures are read once (to hash and probe them, when
/// the book is resolved), never held by the process while the PDF is written. The buffers come
/// from the PDF's `SparseSpace`, unmapped once when it is written, not one by one.
///
/// The header and the bytes copied into the PDF come from one descriptor, opened beneath the
/// book's folder and checked to be the file the book was resolved with (`ImageAsset.openFile`).
final class JPEGFileBytes {
    private let file: OpenedFile
    let count: Int
    let bytes: UnsafeMutableRawPointer
    var descriptor: Int32 { file.descriptor }
    /// Where `bytes` are when they hold the header alone, kept as long as they are.
    private let space: SparseSpace?

    /// Nil when the file cannot be opened again, has been replaced or changed size, or cannot be read.
    init?(_ asset: ImageAsset, space: SparseSpace) {
        guard let file = asset.openFile(), file.identity.size > 0 else { return nil }
        let count = file.identity.size
        let fd = file.descriptor
        // Read a page at a time, as few pages of the space are written as the header takes.
        if let buffer = space.buffer(count), JPEGHeader.read(fd, into: buffer, count: count, step: 4_096) != nil {
            self.file = file
            self.count = count
            bytes = buffer
            self.space = space
            return
        }
        // Markers that do not parse as a header: read it all, so cairo sees the file as it is, in
        // memory of its own that goes with it.
        guard let mapped = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else { return nil }
        guard JPEGHeader.fill(fd, mapped, from: 0, to: count) == count else {
            munmap(mapped, count)
            return nil
        }
        self.file = file
        self.count = count
        bytes = mapped
        self.space = nil
    }

    deinit {
        if space == nil { munmap(bytes, count) }
    }

}
