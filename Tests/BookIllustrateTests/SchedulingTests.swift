import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

@Suite struct SchedulingTests {
    @Test(arguments: [1, 3])
    func coverAndFirstPageFirstAndNeverMoreThanN(_ n: Int) async throws {
        let server = try ProviderServer(["latency": 0.15])
        let dir = try temporaryDirectory("sched")
        let url = try makeBook(pages: 9, in: dir)
        let summary = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache"), concurrency: n))
        let requests = try server.requests()
        #expect(summary.calls == 10)
        #expect(requests.count == 10)
        #expect(Set(requests.prefix(2).map { marker($0.prompt) }) == ["cover", "01"])
        if n == 1 { #expect(requests.map { marker($0.prompt) } == ["cover", "01", "02", "03", "04", "05", "06", "07", "08", "09"]) }
        #expect(requests.map(\.inflight).max()! <= n)
        if n > 1 { #expect(requests.map(\.inflight).max()! > 1) }
        let rest = requests.dropFirst(2).map { marker($0.prompt) }
        #expect(rest.sorted() == rest || n > 1)
    }

    @Test func maxImagesLeavesTheRestForLater() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("max")
        let url = try makeBook(pages: 5, in: dir)
        var opts = options(.openrouter, server: server, cache: dir.appendingPathComponent("cache"))
        opts.maxImages = 2
        let summary = try await Illustrator.run(bookAt: url, options: opts)
        #expect(summary.calls == 2)
        #expect(summary.skipped == 4)
        #expect(try loadBook(url).pages.filter { $0.picture?.image == nil }.count == 4)
    }
}
