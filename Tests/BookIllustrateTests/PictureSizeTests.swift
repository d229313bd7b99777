import Foundation
import Testing
import BookModel
import BookResolve
@testable import BookIllustrate
import BookTestSupport

/// A picture too small to print its place is a failed attempt; one of another shape than asked is
/// used, and named.
@Suite struct PictureSizeTests {
    @Test func aPictureTooSmallToPrintIsRefusedAndAskedForAgain() async throws {
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [["kind": "success", "width": 4, "height": 4]]]]])
        let dir = try temporaryDirectory("too-small")
        let url = try makeBook(pages: 2, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache"), lines: lines))
        #expect(summary.failures.isEmpty && summary.ready == 3, "\(summary.lines)")
        #expect(try server.requests().filter { marker($0.prompt) == "02" }.count == 2, "the 4 × 4 picture was taken")
        // The default trim, 8.25 × 11 in, at the preview floor of 30 ppi.
        #expect(lines.text.contains("page 2 of 2: openai sent a picture that cannot be used: it is 4 × 4 px; page 2 of 2 needs at least "
                                    + "248 × 330 px (30 ppi over its 8.25 × 11 in at preview)"), "\(lines.text)")
        guard case .path(let image)? = try loadBook(url).pages[1].picture?.image else { Issue.record("page 2 has no picture"); return }
        let info = try ImageProbe.probe(Data(contentsOf: dir.appendingPathComponent(image)))
        #expect(info.pixelWidth == 1024 && info.pixelHeight == 1536)
    }

    /// OpenAI is asked for a size, Gemini for a ratio: a picture far from either is named with the
    /// page and both shapes, and used; the providers' usual sizes (Gemini's 864 × 1184 for 3:4) pass.
    @Test(arguments: [(ProviderName.openai, "1024x1536 (0.67:1)"), (.gemini, "3:4 (0.75:1)")])
    func aPictureOfAnotherShapeIsUsedAndNamed(_ provider: ProviderName, _ asked: String) async throws {
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [["kind": "success", "width": 1536, "height": 512]]]]])
        let dir = try temporaryDirectory("shape")
        let url = try makeBook(pages: 3, in: dir)
        let lines = Lines()
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache"), lines: lines))
        #expect(summary.failures.isEmpty && summary.ready == 4, "\(summary.lines)")
        let note = "the picture is 1536 × 512 px (3.00:1), not the \(asked) asked for"
        #expect(lines.text.contains("page 2 of 3 (p02): \(note)"), "\(lines.text)")
        #expect(summary.warnings.map(\.label) == ["page 2 of 3"], "\(summary.warnings)")
        #expect(summary.lines.contains { $0.hasPrefix("  warning: page 2 of 3: \(note)") }, "\(summary.lines)")
        #expect(try loadBook(url).pages[1].picture?.image != nil)
    }

    /// The local provider draws at least the floor however large the place: a big trim's spread.
    @Test func theLocalProviderDrawsEnoughForALargePlace() async throws {
        let place = PicturePlace(width: 40 * 72, height: 20 * 72)
        let job = IllustrationJob(kind: .page, key: "p", pageIndex: 0, scene: "a wide sea", aspect: AspectRatio(width: 40, height: 20),
                                  label: "page 1", place: place)
        let data = try await LocalProvider(model: "local-1", palette: []).generate(GenerationRequest(job: job, prompt: "a wide sea", references: [], resolution: .preview))
        let info = try ImageProbe.probe(data)
        #expect(info.pixelWidth == 1200 && info.pixelHeight == 600, "\(info.pixelWidth) × \(info.pixelHeight)")
    }
}
