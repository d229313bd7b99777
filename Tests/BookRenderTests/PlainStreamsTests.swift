import Testing
import Foundation
@testable import BookRender
import BookTestSupport

/// The sink's filter for streams cairo wrote plain (`PlainStreams`), fed a small PDF the way
/// cairo 1.16 writes one (its printf flushing before each conversion): the page's content comes
/// out marked and compressed, every other plain stream compressed, a compressed one untouched, and
/// the cross-reference table, `startxref` and the stream lengths moved with what changed, so that
/// qpdf reads the result without a warning.
@Suite struct PlainStreamsTests {
    /// What cairo would write for a one-page PDF: a plain page content stream (1), its length (2),
    /// a plain ToUnicode-like stream (3, 4), an already compressed stream (5, 6), the page (7),
    /// pages (8), catalog (9), then the table.
    static func cairoWrites(content: String, compressed: [UInt8]) -> [[UInt8]] {
        var writes: [[UInt8]] = []
        var offsets: [Int: Int] = [:]
        var position = 0
        func w(_ s: String) { w(Array(s.utf8)) }
        func w(_ b: [UInt8]) {
            guard !b.isEmpty else { return }
            writes.append(b)
            position += b.count
        }
        func object(_ id: Int) { offsets[id] = position }
        w("%PDF-1.5\n%\u{B5}\u{ED}\u{AE}\u{FB}\n")
        // The page's content: header in three writes, the body in many small ones.
        object(1)
        w("1 0 obj\n<< /Length "); w("2 0 R\n"); w(">>\nstream\n")
        var body = 0
        for piece in content.split(separator: " ", omittingEmptySubsequences: false).map({ String($0) + " " }) {
            w(piece)
            body += piece.utf8.count
        }
        w("\nendstream\nendobj\n")
        object(2)
        w("2 0 obj\n   "); w("\(body)\nendobj\n")
        // Another plain stream, with a dictionary entry of its own.
        object(3)
        let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap end end"
        w("3 0 obj\n<< /Length "); w("4 0 R\n"); w("   /Type /Whatever\n"); w(">>\nstream\n"); w(cmap)
        w("\nendstream\nendobj\n")
        object(4)
        w("4 0 obj\n   "); w("\(cmap.utf8.count)\nendobj\n")
        // A stream cairo compressed itself.
        object(5)
        w("5 0 obj\n<< /Length "); w("6 0 R\n"); w("   /Filter /FlateDecode\n"); w(">>\nstream\n"); w(compressed)
        w("\nendstream\nendobj\n")
        object(6)
        w("6 0 obj\n   "); w("\(compressed.count)\nendobj\n")
        object(7)
        w("7 0 obj\n<< /Type /Page /Parent 8 0 R /MediaBox [0 0 432 648] /Contents 1 0 R\n"
          + "   /Resources << /XObject << >> >> /PieceInfo << /A 3 0 R /B 5 0 R >> >>\nendobj\n")
        object(8)
        w("8 0 obj\n<< /Type /Pages /Kids [7 0 R] /Count 1 >>\nendobj\n")
        object(9)
        w("9 0 obj\n<< /Type /Catalog /Pages 8 0 R >>\nendobj\n")
        let xref = position
        w("xref\n"); w("0 "); w("10\n"); w("0000000000 65535 f \n")
        for id in 1...9 {
            let digits = String(offsets[id]!)
            w(String(repeating: "0", count: 10 - digits.count) + digits); w(" 00000 n \n")
        }
        w("trailer\n<< /Size "); w("10\n   /Root "); w("9 0 R\n>>\n")
        w("startxref\n"); w("\(xref)\n"); w("%"); w("%EOF\n")
        return writes
    }

    static func filtered(_ writes: [[UInt8]], marking: Bool = true) -> (bytes: [UInt8], marked: Set<Int>) {
        var filter = PlainStreams(marksArtifacts: marking)
        var out: [UInt8] = []
        for write in writes {
            switch write.withUnsafeBytes({ filter.take($0) }) {
            case .pass: out += write
            case .hold: break
            case .write(let bytes): out += bytes
            case .failed: Issue.record("a body could not be kept")
            }
        }
        out += filter.flush()
        return (out, filter.marked)
    }

    func qpdf(_ args: [String]) throws -> ToolResult { try run("qpdf", args) }

    @Test func aPlainPageIsMarkedAndCompressedAndTheTableStaysTrue() throws {
        let content = "1 0 0 -1 0 648 cm q 0.9 0.9 0.9 rg 0 0 432 648 re f Q /P <</MCID 0>> BDC BT /F1 12 Tf (Every) Tj ET EMC"
        let compressed = try ArtifactMarking.markPage(.init(bytes: Array("0 0 m 5 5 l S".utf8), compressed: false), index: 0).get()
        let writes = Self.cairoWrites(content: content, compressed: [UInt8](compressed))
        let original = writes.flatMap { $0 }
        let (bytes, marked) = Self.filtered(writes)
        #expect(marked == [1])

        let dir = try temporaryDirectory("plain-streams")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = dir.appendingPathComponent("cairo.pdf"), after = dir.appendingPathComponent("filtered.pdf")
        try Data(original).write(to: before)
        try Data(bytes).write(to: after)
        // cairo's plain file and the filtered one both read without a warning (qpdf exits 3 on one).
        for file in [before, after] {
            let check = try qpdf(["--check", file.path])
            #expect(check.status == 0, "\(file.lastPathComponent): \(check.stdout) \(check.stderr)")
        }
        // The page's content is compressed now, and reads back marked.
        let page = try qpdf(["--show-object=1", after.path])
        #expect(page.stdout.contains("/Filter /FlateDecode"), "\(page.stdout)")
        let text = try qpdf(["--show-object=1", "--filtered-stream-data", after.path]).stdout
        #expect(text == String(decoding: try ArtifactMarking.markedText(Array((content + " ").utf8)), as: UTF8.self))
        #expect(text.contains("/Artifact BMC"))
        // The other plain stream is compressed, not marked; the compressed one is as it was.
        #expect(try qpdf(["--show-object=3", after.path]).stdout.contains("/Filter /FlateDecode"))
        let cmap = try qpdf(["--show-object=3", "--filtered-stream-data", after.path]).stdout
        #expect(cmap == "/CIDInit /ProcSet findresource begin 12 dict begin begincmap end end")
        let raw = try qpdf(["--show-object=5", "--raw-stream-data", after.path]).stdoutData
        #expect([UInt8](raw) == [UInt8](compressed))
        // The length object holds the compressed length.
        let stored = try qpdf(["--show-object=1", "--raw-stream-data", after.path]).stdoutData.count
        #expect(try qpdf(["--show-object=2", after.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(stored))
    }

    /// An untagged PDF's pages have nothing to tell artifacts from: compressed, not marked.
    @Test func anUntaggedPageIsOnlyCompressed() throws {
        let content = "1 0 0 -1 0 648 cm q 0 0 432 648 re f Q BT /F1 12 Tf (Every) Tj ET"
        let (bytes, marked) = Self.filtered(Self.cairoWrites(content: content, compressed: Array("x".utf8)), marking: false)
        #expect(marked.isEmpty)
        let dir = try temporaryDirectory("plain-streams-untagged")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("filtered.pdf")
        try Data(bytes).write(to: file)
        #expect(try qpdf(["--show-object=1", file.path]).stdout.contains("/Filter /FlateDecode"))
        #expect(try qpdf(["--show-object=1", "--filtered-stream-data", file.path]).stdout == content + " ")
    }

    @Test func writesItDoesNotKnowPassAsTheyCame() {
        // A header cut off by something else, then a compressed-looking stream: nothing changes.
        let writes: [[UInt8]] = [Array("1 0 obj\n<< /Length ".utf8), Array("2 0 R\n".utf8), Array("   /Filter /DCTDecode\n".utf8),
                                 Array(">>\nstream\n".utf8), [0xFF, 0xD8, 0xFF, 0xD9], Array("\nendstream\nendobj\n".utf8),
                                 Array("2 0 obj\n   ".utf8), Array("4\nendobj\n".utf8), Array("12 0 obj\n<< /Length x".utf8)]
        let (bytes, marked) = Self.filtered(writes)
        #expect(bytes == writes.flatMap { $0 })
        #expect(marked.isEmpty)
    }
}
