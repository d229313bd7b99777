import Foundation
import Testing
import BookModel
import BookResolve
@testable import BookIllustrate
import BookTestSupport

@Suite struct LocalProviderTests {
    func request(_ scene: String, _ aspect: AspectRatio = AspectRatio(width: 3, height: 4)) -> GenerationRequest {
        GenerationRequest(job: IllustrationJob(kind: .page, key: "p", pageIndex: 0, scene: scene, aspect: aspect, label: "page 1"),
                          prompt: "P", references: [], resolution: .preview)
    }

    @Test func sameSceneSameBytesOtherSceneOtherBytes() async throws {
        let p = LocalProvider(model: "local-1", palette: [])
        let a = try await p.generate(request("a fox on a hill"))
        let b = try await p.generate(request("a fox on a hill"))
        let c = try await p.generate(request("an owl in a tree"))
        #expect(a == b)
        #expect(a != c)
        let info = try ImageProbe.probe(a)
        #expect(info.format == .png)
        #expect(info.pixelWidth == 576 && info.pixelHeight == 768)
        let wide = try ImageProbe.probe(try await p.generate(request("x", AspectRatio(width: 16, height: 9))))
        #expect(wide.pixelWidth == 768 && wide.pixelHeight == 432)
    }

    @Test func concurrentDrawingIsSafeAndDeterministic() async throws {
        let p = LocalProvider(model: "local-1", palette: ["#FFF4E0", "#E07A2F", "#3C6E71"])
        let results = await withTaskGroup(of: Data?.self) { group in
            for _ in 0..<8 { group.addTask { try? await p.generate(request("the same scene")) } }
            var out: [Data?] = []
            for await r in group { out.append(r) }
            return out
        }
        #expect(results.count == 8 && results.allSatisfy { $0 != nil }, "every drawing succeeds")
        #expect(Set(results.compactMap { $0 }).count == 1)
    }

    @Test func fillsABookOfflineAndNeverReplacesAUsersImage() async throws {
        let dir = try temporaryDirectory("local")
        let url = try makeBook(pages: 3, in: dir)
        var book = try loadBook(url)
        book.pages[1].picture?.image = .path("images/hero.png")
        try BookExporter.encode(book).write(to: url)
        let summary = try await Illustrator.run(bookAt: url, options: options(.local, server: nil, cache: dir.appendingPathComponent("cache")))
        #expect(summary.failures.isEmpty)
        #expect(summary.ready == 3)   // cover, p01, p03
        let after = try loadBook(url)
        #expect(after.pages[1].picture?.image == .path("images/hero.png"))
        for i in [0, 2] {
            guard case .path(let p)? = after.pages[i].picture?.image else { Issue.record("page \(i + 1) has no image"); continue }
            #expect(p.hasPrefix("images/generated-p0\(i + 1)-"))
            _ = try ImageProbe.probe(Data(contentsOf: dir.appendingPathComponent(p)))
        }
        #expect(after.cover?.photo != nil)
    }
}
