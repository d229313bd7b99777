import Testing
import Foundation
@testable import BookRender
import BookTestSupport

/// A page's content as the marking takes it from cairo (a zlib stream) and gives it back: inflated
/// whole however far it expands, marked, compressed again into a stream any zlib reader takes,
/// and a stream that does not inflate refused with a message.
@Suite struct ArtifactCompressionTests {
    /// A page's worth of content: a page fill, tagged text, a folio.
    static let page = Array(("q 1 1 1 rg 0 0 432 648 re f Q\n"
        + String(repeating: "/P <</MCID 0>> BDC BT /f-0-0 11 Tf 1 0 0 1 54 600 Tm [(Every)-20(screw)] TJ ET EMC\n", count: 40)
        + "BT /f-0-0 9 Tf 1 0 0 1 210 30 Tm (17) Tj ET\n").utf8)

    func mark(_ bytes: [UInt8], compressed: Bool) throws -> [UInt8] {
        [UInt8](try ArtifactMarking.markPage(.init(bytes: bytes, compressed: compressed), index: 0).get())
    }

    /// What zlib itself (qpdf's `zlib-flate`) reads from `stream`.
    func inflatedByZlib(_ stream: [UInt8]) throws -> [UInt8] {
        let dir = try temporaryDirectory("flate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("stream.zlib")
        try Data(stream).write(to: file)
        let result = try run("sh", ["-c", "zlib-flate -uncompress < '\(file.path)'"])
        try #require(result.status == 0, "zlib-flate: \(result.stderr)")
        return [UInt8](result.stdoutData)
    }

    @Test func markedContentIsAZlibStreamOfTheMarkedText() throws {
        let stream = try mark(Self.page, compressed: false)
        #expect(try inflatedByZlib(stream) == ArtifactMarking.markedText(Self.page))
        #expect(stream.count < Self.page.count / 4)
    }

    @Test func compressedContentIsInflatedBeforeMarking() throws {
        let once = try mark(Self.page, compressed: false)
        // Marking leaves what is marked already as it is: the same stream comes back.
        #expect(try mark(once, compressed: true) == once)
        #expect(try mark(once, compressed: true) != Self.page)
    }

    @Test func contentThatExpandsFarBeyondItsStreamIsInflatedWhole() throws {
        // Tens of thousands of identical paths: the stream is a tiny fraction of the content.
        let content = Array(String(repeating: "0 0 m 10 10 l S\n", count: 60_000).utf8)
        let stream = try mark(content, compressed: false)
        #expect(stream.count * 100 < content.count)
        let again = try mark(stream, compressed: true)
        #expect(again == stream)
        #expect(try inflatedByZlib(again) == ArtifactMarking.markedText(content))
    }

    @Test func aStreamThatDoesNotInflateIsRefused() throws {
        let stream = try mark(Self.page, compressed: false)
        for broken in [Array(stream.prefix(stream.count / 2)), stream.enumerated().map { $0.offset == stream.count / 2 ? ~$0.element : $0.element }] {
            switch ArtifactMarking.markPage(.init(bytes: broken, compressed: true), index: 4) {
            case .success: Issue.record("a broken stream was marked")
            case .failure(let error):
                #expect(error.message.contains("page 5"))
                #expect(error.message.contains("does not inflate"))
            }
        }
    }
}
