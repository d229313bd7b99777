import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// What the scheduler promises: the cover and the first page start first; the other pages wait for
/// the first (their style reference) and then start in reading order; never more than the
/// concurrency at once, and every free place is taken while a job is waiting.
@Suite struct SchedulingTests {
    /// The order the jobs of `makeBook(pages: 9, …)` are promised to start in.
    static let order = ["cover"] + (1...9).map { String(format: "%02d", $0) }

    /// Through the real providers' HTTP, against the loopback server. The server sees arrivals,
    /// not starts, so only what holds whatever the threads' timing is asserted.
    @Test(arguments: [1, 3])
    func requestsComeWithinTheBoundAndInTheOrderPromised(_ n: Int) async throws {
        let server = try ProviderServer(["latency": 0.15])
        let dir = try temporaryDirectory("sched")
        let url = try makeBook(pages: 9, in: dir)
        let summary = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache"), concurrency: n))
        let requests = try server.requests()
        #expect(summary.calls == 10)
        let arrived = requests.map { marker($0.prompt) }
        #expect(arrived.sorted() == Self.order.sorted(), "one request per picture")
        #expect(requests.allSatisfy { $0.inflight <= n }, "in flight at arrival: \(requests.map(\.inflight))")
        // A page waits for the first page's answer, so every other page arrives after it.
        let first = try #require(requests.first { marker($0.prompt) == "01" })
        for r in requests where !["cover", "01"].contains(marker(r.prompt)) {
            #expect(r.arrival > first.arrival, "\(marker(r.prompt)) was sent before the first page")
        }
        // Jobs start in the promised order and only into a free place: when the job k places down
        // the order starts, at least k - (n - 1) of those before it have been answered, so the
        // k-th request to arrive is at most n - 1 places further down. For n = 1, exactly the order.
        for (k, m) in arrived.enumerated() {
            let place = try #require(Self.order.firstIndex(of: m))
            #expect(place <= k + n - 1, "request \(k + 1) was \(m): \(arrived)")
        }
    }

    /// With every call held until the test lets it go, what the scheduler has started is known at
    /// each step: it must be exactly what the promise says, and it must use every free place. A
    /// wrong start fails the test as soon as it is seen, and the turnstile then lets every call
    /// through so the run still ends.
    @Test(.timeLimit(.minutes(3)), arguments: [1, 2, 3])
    func everyFreePlaceIsTakenInTheOrderPromised(_ n: Int) async throws {
        let dir = try temporaryDirectory("sched-held")
        let book = try loadBook(try makeBook(pages: 9, in: dir))
        let turnstile = Turnstile()
        let context = heldContext(book, folder: dir, concurrency: n, turnstile: turnstile)
        #expect(context.plan.all.map(\.key) == ["cover"] + (1...9).map { String(format: "p%02d", $0) })
        let scheduling = Task { await Illustrator.schedule(plan: context.plan, context: context) }

        // The promise, step by step: the first page opens the gate for the rest.
        var open = ["cover", "p01"], gated = (2...9).map { String(format: "p%02d", $0) }
        var running: [String] = []
        func starting() -> [String] {
            let started = Array(open.prefix(n - running.count))
            open.removeFirst(started.count)
            running += started
            return started
        }
        var expected = starting(), seen = 0
        while !running.isEmpty {
            // Should the scheduler start less than promised, the time limit ends the wait. It is
            // a bound on a hang, not a measure: on a busy machine the other tests of the process
            // may hold every thread of the pool for a while.
            let arrived = await withTaskCancellationHandler {
                await turnstile.arrivals(count: seen + expected.count)
            } onCancel: {
                Task { await turnstile.openForGood() }
            }
            let started = Array(arrived[seen...])
            guard Set(started) == Set(expected) else {
                Issue.record("after \(arrived[..<seen]) the scheduler started \(started), not \(expected)")
                break
            }
            seen = arrived.count
            let done = running.removeFirst()
            await turnstile.release(done)
            if done == "p01" { open += gated; gated = [] }
            expected = starting()
        }
        let mostAtOnce = await turnstile.mostAtOnce
        await turnstile.openForGood()
        await scheduling.value
        #expect(await turnstile.arrived.count == 10)
        #expect(mostAtOnce == n)
        // No page came while the first page was still held.
        let releasedBefore = await turnstile.releasedBefore
        for page in (2...9).map({ String(format: "p%02d", $0) }) {
            #expect(releasedBefore[page]?.contains("p01") == true, "\(page) started before the first page was made")
        }
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

    /// A job context as `Illustrator.run` builds it, with a provider that waits at the turnstile.
    func heldContext(_ book: Book, folder: URL, concurrency: Int, turnstile: Turnstile) -> JobContext {
        let opts = options(.local, server: nil, cache: folder.appendingPathComponent("cache"), concurrency: concurrency)
        let plan = IllustrationPlan(book: book, trim: Illustrator.trimAndPalette(book).0)
        let url = folder.appendingPathComponent("book.json")
        return JobContext(provider: HeldProvider(turnstile: turnstile), builder: PromptBuilder(book: book),
                          book: BookFile(book: book, url: url, folder: folder, writes: false),
                          journal: Journal(url: folder.appendingPathComponent("book.illustrate.json"), book: "book.json",
                                           provider: "held", model: "held-1", writes: false),
                          options: opts, plan: plan, counters: RunCounters(), total: plan.all.count, key: "")
    }
}

/// Holds every call until the test lets it go; counts how many were held at once.
actor Turnstile {
    private var held: [String: CheckedContinuation<Void, Never>] = [:]
    private(set) var arrived: [String] = []
    private(set) var mostAtOnce = 0
    /// For each key, the keys let go before it arrived.
    private(set) var releasedBefore: [String: Set<String>] = [:]
    private var released: Set<String> = []
    private var waiting: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []
    /// Once open, nothing is held or waited for any more: a failed test still lets the run end.
    private var isOpen = false

    func pass(_ key: String) async {
        await withCheckedContinuation { continuation in
            arrived.append(key)
            releasedBefore[key] = released
            wakeWaiting()
            if isOpen { return continuation.resume() }
            held[key] = continuation
            mostAtOnce = max(mostAtOnce, held.count)
        }
    }

    func release(_ key: String) {
        released.insert(key)
        held.removeValue(forKey: key)?.resume()
    }

    func openForGood() {
        isOpen = true
        for continuation in held.values { continuation.resume() }
        held = [:]
        wakeWaiting()
    }

    /// The keys that have arrived, once there are at least `count` (or the turnstile is open).
    func arrivals(count: Int) async -> [String] {
        if arrived.count >= count || isOpen { return arrived }
        return await withCheckedContinuation { waiting.append((count, $0)) }
    }

    private func wakeWaiting() {
        waiting.removeAll { waiter in
            guard arrived.count >= waiter.count || isOpen else { return false }
            waiter.continuation.resume(returning: arrived)
            return true
        }
    }
}

struct HeldProvider: ImageProvider {
    let turnstile: Turnstile
    var name: String { "held" }
    var model: String { "held-1" }
    func sizeKey(for request: GenerationRequest) -> String { "8x8" }
    func estimatedCost(_ request: GenerationRequest) -> Double? { nil }
    func generate(_ request: GenerationRequest) async throws(ProviderFailure) -> Data {
        await turnstile.pass(request.job.key)
        // A picture of the size a page needs, as a provider makes it.
        return try await LocalProvider(model: "held-1", palette: []).generate(request)
    }
}
