import Foundation
import BookBase
import BookResolve

/// The objects a finishing step changed or made, written after the end of the original file with
/// their own cross-reference section and a trailer pointing back at the original one (`/Prev`):
/// an incremental update, PDF 32000-1 §7.5.6. Readers take the newest version of each object, so
/// the file reads as if rewritten, while the original bytes (pictures above all) stay untouched.
struct IncrementalUpdate {
    private let objects: [(id: Int, body: Data)]
    private let size: Int
    private let root: Int
    private let info: Int?

    /// Takes what `doc` changed, and `changed`: objects of the same file made elsewhere (its CMYK
    /// conversion), each `n 0 obj`'s body; `doc` must have been read from the file the update will
    /// go to, and must not have changed those objects too (`Overlap`: each change would be made on
    /// the other's old version).
    /// Without `withItsOwnChanges`, only `changed`, `doc` giving the trailer.
    init(_ doc: QPDFDocument, adding changed: [(id: Int, body: Data)] = [], withItsOwnChanges: Bool = true) throws {
        var bodies = Dictionary(changed.map { ($0.id, $0.body) }, uniquingKeysWith: { _, last in last })
        for id in withItsOwnChanges ? doc.touched : [] {
            guard bodies[id] == nil else { throw Overlap(id: id) }
            bodies[id] = try doc.unparsed(id)
        }
        objects = bodies.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let trailer = try doc.trailer()
        guard let root = try doc.objectID(try doc.root()) else { throw FinishingError("the PDF's catalog is not an indirect object") }
        self.root = root
        info = try doc.has(trailer, "/Info") ? try doc.objectID(try doc.get(trailer, "/Info")) : nil
        size = max(try doc.intValue(try doc.get(trailer, "/Size")), (objects.last?.id ?? 0) + 1)
    }

    /// An object both the finishing and the objects it was given changed.
    struct Overlap: Error {
        let id: Int
    }

    /// `target`: the PDF `file` becomes, which a write failure names.
    func append(to file: URL, naming target: URL, contentDigest: String) throws {
        guard let handle = FileHandle(forUpdatingAtPath: file.path) else { throw OutputError.cannotWrite(target) }
        defer { try? handle.close() }
        do {
            let end = try handle.seekToEnd()
            let previous = try Self.startxref(handle, fileSize: end, path: file.path)
            var bytes = Data("\n".utf8)
            var offsets: [Int: Int] = [:]
            for (id, body) in objects {
                offsets[id] = Int(end) + bytes.count
                bytes.append(Data("\(id) 0 obj\n".utf8))
                bytes.append(body)
                bytes.append(Data("\nendobj\n".utf8))
            }
            let xref = Int(end) + bytes.count
            var text = "xref\n"
            for run in Self.runs(objects.map(\.id)) {
                text += "\(run.first!) \(run.count)\n"
                for id in run { text += Self.xrefEntry(offset: offsets[id]!) }
            }
            // The same content and finishing give the same ID; both halves equal, as for a new file.
            let id = String(SHA256.hex(Data((contentDigest + "\n").utf8) + bytes + Data(text.utf8)).prefix(32))
            var trailer = "/Size \(size) /Root \(root) 0 R"
            if let info { trailer += " /Info \(info) 0 R" }
            trailer += " /Prev \(previous) /ID [<\(id)><\(id)>]"
            text += "trailer\n<< \(trailer) >>\nstartxref\n\(xref)\n%%EOF\n"
            bytes.append(Data(text.utf8))
            do { try handle.write(contentsOf: bytes) } catch {
                throw OutputError("cannot write \(target.path): \(AtomicOutput.reason(error))")
            }
        } catch let error as FinishingError {
            throw error
        } catch let error as OutputError {
            throw error
        } catch {
            throw FinishingError("cannot finish \(file.path): \(error.localizedDescription)")
        }
    }

    /// "0000012345 00000 n \n": 20 bytes, the offset padded to ten digits.
    static func xrefEntry(offset: Int) -> String {
        let digits = String(offset)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n"
    }

    /// Consecutive object numbers, one cross-reference subsection each.
    static func runs(_ ids: [Int]) -> [[Int]] {
        var out: [[Int]] = []
        for id in ids {
            if let last = out.last?.last, last + 1 == id { out[out.count - 1].append(id) } else { out.append([id]) }
        }
        return out
    }

    /// The offset after the last `startxref` of the file: where its newest cross-reference is.
    /// Read with one small `pread`: a large buffer allocated here, at the end of an export, makes
    /// malloc sort through every small block the layout freed.
    static func startxref(_ handle: FileHandle, fileSize: UInt64, path: String) throws -> Int {
        let tail = Int(min(fileSize, 1024))
        var buffer = [UInt8](repeating: 0, count: tail)
        let got = buffer.withUnsafeMutableBytes { pread(handle.fileDescriptor, $0.baseAddress, tail, off_t(fileSize) - off_t(tail)) }
        guard got == tail else { throw FinishingError("cannot read the end of \(path)") }
        let text = String(decoding: buffer, as: UTF8.self)
        guard let keyword = text.range(of: "startxref", options: .backwards),
              let number = text[keyword.upperBound...].split(whereSeparator: \.isWhitespace).first.flatMap({ Int($0) }) else {
            throw FinishingError("\(path) has no startxref at its end")
        }
        return number
    }
}
