import Testing
import Foundation
import BookModel
import BookResolve
@testable import BookRender
import BookTestSupport
import BookRenderKit

/// A JPEG file reaches the PDF without the process holding it: cairo is given its header, and the
/// sink copies the rest from the file. Checked on the bytes: header lengths, what the sink writes
/// for whole and partial writes, and the JPEG streams of a finished PDF.
@Suite struct JPEGPassThroughTests {
    /// Where the first SOS segment ends: segment lengths added up from SOI, the plain way (the
    /// test JPEGs have no fill bytes and no markers without a length before their scan).
    func sosEnd(_ jpeg: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let end = offset + 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
            if jpeg[offset + 1] == 0xDA { return end }
            offset = end
        }
        return nil
    }

    func headerLength(_ data: Data) throws -> Int? {
        let dir = try temporaryDirectory("jpeg-header")
        let url = dir.appendingPathComponent("x.jpg")
        try data.write(to: url)
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: data.count, alignment: 16)
        defer { buffer.deallocate() }
        guard let length = JPEGHeader.read(fd, into: buffer, count: data.count) else { return nil }
        #expect(Data(bytes: buffer, count: length) == data.prefix(length), "the header read is the file's")
        return length
    }

    @Test func headerEndsWithTheFirstScanHeader() throws {
        let plain = try TestImages.gradientJPEG(width: 64, height: 48)
        #expect(try headerLength(plain) == sosEnd(Array(plain)))
        let big = TestImages.withComments(plain, segments: 3, size: 60_000)
        #expect(big.count > 180_000)
        #expect(try headerLength(big) == sosEnd(Array(big)))
        let progressive = try TestImages.gradientJPEG(width: 64, height: 48, ["-progressive"])
        #expect(try headerLength(progressive) == sosEnd(Array(progressive)))
        #expect(try headerLength(Data([0xFF, 0xD8, 0xFF, 0xFE, 0x00])) == nil, "cut short inside a segment")
        #expect(try headerLength(Data("not a jpeg".utf8)) == nil)
    }

    /// The sink writes a file-backed buffer's bytes from the file: whole, or a part cairo might
    /// write on its own, and hashes a part as the bytes it is.
    @Test func sinkCopiesFileBackedBytesFromTheFile() throws {
        let dir = try temporaryDirectory("jpeg-sink")
        let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let file = try FileStandIn(content, in: dir)

        let out = dir.appendingPathComponent("out.bin")
        let sink = try PDFSink(out)
        file.register(with: sink)
        let head = Data("head".utf8)
        sink.write(head)
        #expect(file.write(to: sink))
        #expect(file.write(to: sink, offset: 1000, length: 5000))
        let partDigest = try sink.close()
        #expect(try Data(contentsOf: out) == head + content + content[1000..<6000])

        // The same bytes written plainly give the same digest for the part (the whole image counts
        // as its id either way).
        let plainOut = dir.appendingPathComponent("plain.bin")
        let plain = try PDFSink(plainOut)
        plain.write(head)
        plain.writePicture(content, id: "src")
        plain.write(content[1000..<6000])
        #expect(try plain.close() == partDigest)
    }

    static var shmIsAnotherFileSystem: Bool {
        var a = stat(), b = stat()
        return stat(FileManager.default.temporaryDirectory.path, &a) == 0 && stat("/dev/shm", &b) == 0 && a.st_dev != b.st_dev
    }

    /// Where the kernel cannot copy between the files (the PDF on another file system, here
    /// /dev/shm when it is one), the sink reads and writes the bytes itself, for every picture.
    @Test(.enabled(if: shmIsAnotherFileSystem, "needs /dev/shm on a file system of its own"))
    func sinkCopiesAcrossFileSystems() throws {
        let dir = try temporaryDirectory("jpeg-xdev")
        let shm = URL(fileURLWithPath: "/dev/shm/bookrender-test-\(getpid())-\(UUID().uuidString)")
        defer { unlink(shm.path) }
        let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let file = try FileStandIn(content, in: dir)
        let sink = try PDFSink(shm)
        file.register(with: sink)
        #expect(file.write(to: sink))
        #expect(file.write(to: sink))
        _ = try sink.close()
        #expect(try Data(contentsOf: shm) == content + content)
    }

    /// On a thread of its own the copy runs beside the writes after it: a picture cut short stops
    /// the sink as soon as the copier has met it, and is reported when the sink is closed.
    @Test(arguments: [true, false]) func aFileThatShrankIsReportedNotPadded(copyingOnAThread: Bool) throws {
        let dir = try temporaryDirectory("jpeg-shrunk")
        // Resolved at 20,000 bytes; the file now holds 10,000.
        let file = try FileStandIn(Data(repeating: 7, count: 10_000), in: dir, count: 20_000)
        let later = try FileStandIn(Data(repeating: 9, count: 30_000), in: dir, name: "later.bin")
        let sink = try PDFSink(dir.appendingPathComponent("out.bin"), copyingOnAThread: copyingOnAThread)
        file.register(with: sink, origin: "images/src.jpg")
        later.register(with: sink, origin: "images/later.jpg")
        _ = file.write(to: sink)
        // Once the copy has met the short file, the sink takes no more: the pages after it are
        // not drawn for nothing.
        let deadline = Date().addingTimeInterval(120)
        var refused = false
        while !refused && Date() < deadline {
            refused = !later.write(to: sink)
            if !refused { usleep(1_000) }
        }
        #expect(refused)
        let error = #expect(throws: RenderError.self) { try sink.close() }
        #expect(error?.description.contains("images/src.jpg got shorter while it was copied") == true,
                "\(error?.description ?? "")")
    }

    /// Pictures queued faster than they are copied (more than the copier keeps waiting), between
    /// other writes and as the very last write, each land where cairo wrote them, on a thread of
    /// their own or not (`--workers 1`); the digest is the one the same bytes written in place give.
    @Test(arguments: [true, false]) func picturesCopiedAlongsideTheOtherWritesLandWhereTheyWereWritten(copyingOnAThread: Bool) throws {
        let dir = try temporaryDirectory("jpeg-queue")
        let count = ImageCopier.maximumPending * 3
        let files = try (0..<count).map { i in
            let size = 50_000 + (i % 5) * 400_000 + i
            let content = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* (i + 3) &+ $0 >> 11) })
            return (content, try FileStandIn(content, in: dir, name: "p\(i).bin"))
        }
        let out = dir.appendingPathComponent("out.bin")
        let sink = try PDFSink(out, copyingOnAThread: copyingOnAThread)
        let plainOut = dir.appendingPathComponent("plain.bin")
        let plain = try PDFSink(plainOut)
        var expected = Data()
        for (i, (content, file)) in files.enumerated() {
            file.register(with: sink)
            let text = Data("obj \(i) stream\n".utf8)
            sink.write(text)
            #expect(file.write(to: sink))
            plain.write(text)
            plain.writePicture(content, id: "src")
            expected += text + content
        }
        let digest = try sink.close()
        #expect(try Data(contentsOf: out) == expected)
        #expect(try plain.close() == digest)
    }

    /// A sink dropped without being closed (an export that failed) waits for its copies before
    /// its file is closed, and leaves no thread behind writing into a reused descriptor.
    @Test func aSinkDroppedMidwayFinishesItsCopiesFirst() throws {
        let dir = try temporaryDirectory("jpeg-dropped")
        let content = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        let file = try FileStandIn(content, in: dir)
        let out = dir.appendingPathComponent("out.bin")
        do {
            let sink = try PDFSink(out)
            file.register(with: sink)
            for _ in 0..<4 { #expect(file.write(to: sink)) }
        }
        #expect(try Data(contentsOf: out) == content + content + content + content)
    }

    /// End to end: a JPEG whose header crosses the 64 KiB read-ahead goes into the PDF byte for byte.
    @Test func aLongHeaderedJPEGIsEmbeddedByteForByte() throws {
        let dir = try temporaryDirectory("jpeg-long-header")
        let jpeg = TestImages.withComments(try TestImages.gradientJPEG(width: 1600, height: 1200), segments: 2, size: 50_000)
        // Scan data beyond what reading the header reads ahead (up to 64 KiB past it): those
        // bytes reach the PDF only by the sink's copy from the file.
        let header = try #require(sosEnd(Array(jpeg)))
        #expect(jpeg.count > header + 100_000)
        try jpeg.write(to: dir.appendingPathComponent("photo.jpg"))
        let book = Book(kind: .memoir, title: "Long header", language: "en-US", created: "2024-02-03T04:05:06Z",
                        theme: "memoir", format: BookFormat(trim: .preset("6x9")),
                        pages: [Page(PhotoPage(image: .path("photo.jpg"), caption: "Photo"))])
        let tree = try TestBooks.document(book, folder: dir).layout()
        let pdf = dir.appendingPathComponent("book.pdf")
        try PrintPDF.write(tree, to: pdf)
        #expect(try run("qpdf", ["--check", pdf.path]).status == 0)
        try run("pdfimages", ["-j", pdf.path, dir.appendingPathComponent("x").path])
        let extracted = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("x-") && $0.hasSuffix(".jpg") }
        #expect(extracted.count == 1)
        #expect(try extracted.map { try Data(contentsOf: dir.appendingPathComponent($0)) } == [jpeg])
    }
}

/// A file and what stands for it in memory, as `JPEGFileBytes` gives them to the sink: an open
/// descriptor and a buffer of `count` zeros, so a write taken from the buffer would show.
private final class FileStandIn {
    let descriptor: Int32
    let bytes: UnsafeMutableRawPointer
    let count: Int

    /// `content` written to `name` in `dir`; `count` (the size resolved) defaults to its length.
    init(_ content: Data, in dir: URL, name: String = "src.bin", count: Int? = nil) throws {
        let url = dir.appendingPathComponent(name)
        try content.write(to: url)
        descriptor = open(url.path, O_RDONLY)
        self.count = count ?? content.count
        bytes = UnsafeMutableRawPointer.allocate(byteCount: self.count, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: self.count)
    }

    deinit {
        close(descriptor)
        bytes.deallocate()
    }

    func register(with sink: PDFSink, origin: String = "src.bin") {
        sink.register(bytes, count: count, id: "src", source: (descriptor, origin))
    }

    /// Has the sink write `length` bytes of the buffer from `offset` (all of it by default).
    func write(to sink: PDFSink, offset: Int = 0, length: Int? = nil) -> Bool {
        sink.write((bytes + offset).assumingMemoryBound(to: UInt8.self), length ?? count)
    }
}

private extension PDFSink {
    /// Writes `data` as cairo writes any bytes of its own.
    @discardableResult func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { write($0.bindMemory(to: UInt8.self).baseAddress!, data.count) }
    }

    /// Writes `picture` as cairo writes a JPEG held in memory: from a buffer the sink knows by the
    /// image's `id`, in one write.
    @discardableResult func writePicture(_ picture: Data, id: String) -> Bool {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: picture.count, alignment: 16)
        defer { buffer.deallocate() }
        picture.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: picture.count) }
        register(buffer, count: picture.count, id: id)
        defer { forget(buffer) }
        return write(buffer.assumingMemoryBound(to: UInt8.self), picture.count)
    }
}
