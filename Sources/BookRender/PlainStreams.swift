import Foundation
import CContentColour
import CGraphics

/// What a program sets, before it starts any thread, to have cairo write page content plain for
/// `PlainStreams` (the executable does; a library leaves the process's environment alone).
public enum PlainCairoContent {
    /// cairo reads it when a PDF surface is made, and then writes its content streams plain.
    public static let cairoVariable = "CAIRO_DEBUG_PDF"
    /// Set to 0, the program leaves cairo compressing its content itself.
    public static let switchVariable = "BOOKRENDER_PLAIN_CAIRO_CONTENT"
    /// Whether this process's cairo writes its PDF the way the filter reads it (1.16.0, Debian 12's).
    public static var readsThisCairo: Bool { String(cString: cairo_version_string()) == "1.16.0" }
}

/// cairo 1.16 compresses every page's content stream (zlib, default level), and the finishing used
/// to inflate each one again to mark its artifacts, then compress it a second time. Told to
/// (`CAIRO_DEBUG_PDF` in its environment when the surface is made, see `PlainCairoContent`),
/// cairo writes those streams plain; this filter on the sink's path then marks a page's content
/// (`ArtifactMarking`) and compresses every plain stream once, and moves each offset cairo
/// counts (the cross-reference table, `startxref`, the stream lengths) by what that changed, so
/// the file cairo meant comes out, compressed and marked, with its table true.
///
/// It reads cairo's writes as cairo 1.16 makes them: `_cairo_output_stream_printf` writes what
/// comes before each conversion, then the converted value with the text after it, so a stream's
/// header arrives as "12 0 obj\n<< /Length ", "13 0 R\n", ">>\nstream\n", and its end as one
/// "\nendstream\nendobj\n". Anything else is passed on as it came: a stream whose header it does
/// not know stays as cairo wrote it, and a compressed one (cairo's usual way) is never touched.
struct PlainStreams {
    enum Action {
        /// Write cairo's bytes as they are.
        case pass
        /// Nothing to write yet.
        case hold
        /// Write these instead (held bytes with them).
        case write([UInt8])
        /// A stream's body could not be kept (out of memory): the PDF fails.
        case failed
    }

    private enum Mode { case pass, header, body, lengthValue(Int), crossReference, startxref }
    private var mode = Mode.pass
    /// Bytes held back: a stream's header until it is whole, or a length object's start.
    private var held: [UInt8] = []
    /// A plain stream's body, collected in C (see `PDFSink.write`, which hands it cairo's writes
    /// while it is active).
    let body = PlainBody()
    private var header: (id: Int, length: Int, extras: ArraySlice<UInt8>, bytes: Int)?
    /// Bytes cairo has written, and what the filter wrote minus that.
    private var cairoPosition = 0
    private var shift = 0
    /// From which of cairo's positions on each `shift` holds, in order.
    private var shifts: [(from: Int, shift: Int)] = []
    /// A compressed stream's length object, and the length it now holds.
    private var lengths: [Int: Int] = [:]
    /// The page content streams marked here, by object number.
    private(set) var marked: Set<Int> = []
    let level: Int32
    /// Whether page content is marked: a tagged PDF's, whose structure leaves the rest untagged.
    let marksArtifacts: Bool

    init(level: Int32 = ArtifactMarking.compression, marksArtifacts: Bool = true) {
        self.level = level
        self.marksArtifacts = marksArtifacts
    }


    /// Takes one write of cairo's.
    mutating func take(_ bytes: UnsafeRawBufferPointer) -> Action {
        if case .body = mode {
            // The body's bytes are counted when the stream ends (`PDFSink` hands most of them
            // to the buffer directly).
            guard let p = bytes.baseAddress, plain_body_take(body.pointer, p, bytes.count) == 1 else { return .hold }
            return finishStream(endedBy: bytes.count)
        }
        defer { cairoPosition += bytes.count }
        switch mode {
        case .pass:
            if Self.opensStream(bytes) {
                held = Array(bytes)
                mode = .header
                return .hold
            }
            if let id = Self.opensLengthObject(bytes), lengths[id] != nil {
                held = Array(bytes)
                mode = .lengthValue(id)
                return .hold
            }
            if bytes.elementsEqual(Self.xref) { mode = .crossReference }
            return .pass
        case .header:
            held += bytes
            guard held.count <= 4096 else { return passHeld() }
            guard held.count >= Self.headerEnd.count, held.suffix(Self.headerEnd.count).elementsEqual(Self.headerEnd) else { return .hold }
            guard let parsed = Self.parseHeader(held), !Self.contains(parsed.extras, Self.filterKey) else { return passHeld() }
            header = (parsed.id, parsed.length, parsed.extras, held.count)
            held.removeAll(keepingCapacity: true)
            body.start()
            mode = .body
            return .hold
        case .body:
            return .hold
        case .lengthValue(let id):
            mode = .pass
            var out = held
            held.removeAll()
            guard Self.lengthValue(bytes) != nil, let length = lengths[id] else {
                out += bytes
                return .write(out)
            }
            let cairoWrote = out.count + bytes.count
            out += Array("\(length)\nendobj\n".utf8)
            moveOffsets(after: cairoPosition + bytes.count, written: out.count, cairoWrote: cairoWrote)
            return .write(out)
        case .crossReference:
            if bytes.count == 10, let offset = Self.digitsThen(bytes, []) {
                let moved = String(offset + shift(at: offset))
                return .write(Array((String(repeating: "0", count: max(0, 10 - moved.count)) + moved).utf8))
            }
            if bytes.elementsEqual(Self.startxrefKeyword) { mode = .startxref }
            return .pass
        case .startxref:
            mode = .pass
            guard let offset = Self.digitsThen(bytes, [0x0A]) else { return .pass }
            return .write(Array("\(offset + shift(at: offset))\n".utf8))
        }
    }

    /// What is held, to write before something the filter does not see (a picture's bytes) or at
    /// the end.
    mutating func flush() -> [UInt8] {
        defer {
            held.removeAll()
            header = nil
            mode = .pass
        }
        // A stream cut short by something else is written as cairo wrote it, header and all.
        guard case .body = mode else { return held }
        let collected = body.end() ?? []
        cairoPosition += collected.count
        return rebuiltPlainHeader() + collected
    }

    /// Cairo's bytes for a write the filter passes over whole (a picture), counted.
    mutating func skip(_ count: Int) { cairoPosition += count }

    // MARK: -

    private mutating func passHeld() -> Action {
        mode = .pass
        let out = held
        held.removeAll()
        return .write(out)
    }

    private mutating func finishStream(endedBy endLength: Int) -> Action {
        guard let header else { return passHeld() }
        self.header = nil
        mode = .pass
        guard let body = self.body.end() else { return .failed }
        // This stream's end, in cairo's bytes: its body and the write that ends it.
        cairoPosition += body.count + endLength
        var content = body
        let pageContent = marksArtifacts && header.extras.isEmpty && body.starts(with: Self.pageContentStart)
        var wasMarked = false
        if pageContent, let markedText = try? ArtifactMarking.markedText(body) {
            content = markedText
            wasMarked = true
        }
        guard let compressed = Self.compress(content, level: level) else {
            // Not compressed after all: cairo's stream as it wrote it.
            return .write(rebuiltPlainHeader(header) + body + Self.streamEnd)
        }
        if wasMarked { marked.insert(header.id) }
        var out = Array("\(header.id) 0 obj\n<< /Length \(header.length) 0 R\n   /Filter /FlateDecode\n".utf8)
        out += header.extras
        out += Self.headerEnd
        out += compressed
        out += Self.streamEnd
        lengths[header.length] = compressed.count
        moveOffsets(after: cairoPosition, written: out.count, cairoWrote: header.bytes + body.count + endLength)
        return .write(out)
    }

    /// Records that `written` bytes stood for `cairoWrote` of cairo's, up to cairo's `position`.
    private mutating func moveOffsets(after position: Int, written: Int, cairoWrote: Int) {
        guard written != cairoWrote else { return }
        shift += written - cairoWrote
        shifts.append((position, shift))
    }

    /// How far an object cairo placed at `offset` has moved.
    private func shift(at offset: Int) -> Int {
        var low = 0, high = shifts.count
        while low < high {
            let mid = (low + high) / 2
            if shifts[mid].from <= offset { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? 0 : shifts[low - 1].shift
    }

    private func rebuiltPlainHeader(_ header: (id: Int, length: Int, extras: ArraySlice<UInt8>, bytes: Int)? = nil) -> [UInt8] {
        guard let header = header ?? self.header else { return [] }
        var out = Array("\(header.id) 0 obj\n<< /Length \(header.length) 0 R\n".utf8)
        out += header.extras
        out += Self.headerEnd
        return out
    }

    private static func compress(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { content_compress($0.baseAddress, $0.count, level, &out, &count, &message, message.count) }
        defer { free(out) }
        guard status == 0, let out else { return nil }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    /// `bytes` as a zlib stream for a FlateDecode stream, at libdeflate's strongest level: for
    /// data written once, such as an output intent's profile.
    static func compressed(_ bytes: [UInt8]) throws -> [UInt8] {
        guard let out = compress(bytes, level: 12) else { throw FinishingError("cannot compress a stream of \(bytes.count) bytes") }
        return out
    }

    private static let headerEnd = Array(">>\nstream\n".utf8)
    private static let streamEnd = Array("\nendstream\nendobj\n".utf8)
    private static let filterKey = Array("/Filter".utf8)
    private static let xref = Array("xref\n".utf8)
    private static let startxrefKeyword = Array("startxref\n".utf8)
    private static let lengthKey = Array(" 0 obj\n<< /Length ".utf8)
    private static let lengthObject = Array(" 0 obj\n   ".utf8)
    private static let endobj = Array("\nendobj\n".utf8)
    /// How cairo starts a page's content (`_cairo_pdf_surface_open_content_stream`).
    private static let pageContentStart = Array("1 0 0 -1 0 ".utf8)

    /// "12 0 obj\n<< /Length ": a stream's header begins.
    private static func opensStream(_ bytes: UnsafeRawBufferPointer) -> Bool {
        digitsThen(bytes, lengthKey) != nil
    }

    /// "13 0 obj\n   ": a length object begins; its number.
    private static func opensLengthObject(_ bytes: UnsafeRawBufferPointer) -> Int? {
        digitsThen(bytes, lengthObject)
    }

    /// The number `bytes` start with when `tail` follows it and ends them.
    private static func digitsThen(_ bytes: UnsafeRawBufferPointer, _ tail: [UInt8]) -> Int? {
        let count = bytes.count - tail.count
        guard count > 0, count <= 18, bytes.suffix(tail.count).elementsEqual(tail),
              bytes.prefix(count).allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(String(decoding: bytes.prefix(count), as: UTF8.self))
    }

    /// "1234\nendobj\n": the value of a length object.
    private static func lengthValue(_ bytes: UnsafeRawBufferPointer) -> Int? { digitsThen(bytes, endobj) }

    /// "N 0 obj\n<< /Length M 0 R\n" + extras + ">>\nstream\n".
    private static func parseHeader(_ bytes: [UInt8]) -> (id: Int, length: Int, extras: ArraySlice<UInt8>)? {
        guard let keyAt = firstRange(of: lengthKey, in: bytes[...]) else { return nil }
        guard let id = Int(String(decoding: bytes[..<keyAt.lowerBound], as: UTF8.self)) else { return nil }
        let afterKey = bytes[keyAt.upperBound...]
        guard let refEnd = firstRange(of: Array(" 0 R\n".utf8), in: afterKey),
              let length = Int(String(decoding: bytes[keyAt.upperBound..<refEnd.lowerBound], as: UTF8.self)) else { return nil }
        let extras = bytes[refEnd.upperBound..<(bytes.count - headerEnd.count)]
        return (id, length, extras)
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i..<(i + needle.count) }
            i += 1
        }
        return nil
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        firstRange(of: needle, in: bytes) != nil
    }
}

/// The C buffer a plain stream's body is collected in.
final class PlainBody {
    let pointer: UnsafeMutablePointer<plain_body>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: plain_body(bytes: nil, size: 0, capacity: 0, active: 0, failed: 0))
    }

    deinit {
        free(pointer.pointee.bytes)
        pointer.deallocate()
    }

    func start() {
        pointer.pointee.size = 0
        pointer.pointee.failed = 0
        pointer.pointee.active = 1
    }

    /// The body collected (nil when it could not all be kept); the buffer stops collecting.
    func end() -> [UInt8]? {
        pointer.pointee.active = 0
        guard pointer.pointee.failed == 0 else { return nil }
        guard let bytes = pointer.pointee.bytes else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: pointer.pointee.size))
    }
}
