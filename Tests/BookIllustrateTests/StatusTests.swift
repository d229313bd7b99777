import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// `illustrate --status` reads a real run's journal without calling anyone; `--events` tells each
/// picture's states in the order they happen.
@Suite struct StatusTests {
    static let schema = Repository.root.appendingPathComponent("schema/illustrate-status.schema.json")

    /// A 500 once for page 2 (retried), a 400 for page 3 (given up), success for the rest.
    func scriptedServer() throws -> ProviderServer {
        let busy: [String: Any] = ["status": 500, "json": ["error": ["message": "The server had an error while processing your request."]]]
        let bad: [String: Any] = ["status": 400, "json": ["error": ["message": "Invalid size 'PAGE-03-SIZE'", "type": "invalid_request_error", "code": "invalid_value"]]]
        return try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [busy]],
                                             ["contains": "SCENE-03", "responses": [bad, bad, bad, bad, bad]]]])
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["OPENAI_API_KEY"] = nil; env["GEMINI_API_KEY"] = nil; env["OPENROUTER_API_KEY"] = nil
        env["http_proxy"] = nil; env["https_proxy"] = nil; env["HTTP_PROXY"] = nil; env["HTTPS_PROXY"] = nil
        return env.merging(extra) { _, b in b }
    }

    @Test func statusListsARealRunsJournalWithoutCallingAnyone() async throws {
        let server = try scriptedServer()
        let dir = try temporaryDirectory("status")
        let url = try makeBook(pages: 4, in: dir)
        _ = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache")))
        let calls = try server.requests().count
        #expect(calls == 6, "cover, 4 pages, one retry of page 2: \(calls)")

        let result = try run(try Repository.binary.path, ["illustrate", url.path, "--status", "--json"],
                             environment: environment(["OPENAI_API_KEY": testKey]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try server.requests().count == calls, "--status called the provider")
        let status = try JSONDecoder().decode(IllustrationStatus.self, from: result.stdoutData)
        #expect(status.journalFound && status.provider == "openai" && status.book == "book.json")
        #expect(status.pictures.map(\.key) == ["cover", "p01", "p02", "p03", "p04"])
        let by = Dictionary(uniqueKeysWithValues: status.pictures.map { ($0.key, $0) })
        #expect(by["cover"]?.state == "ready" && by["cover"]?.attempts == 1 && by["cover"]?.costClass == "paid")
        #expect(by["cover"]?.image?.hasPrefix("images/generated-cover-") == true)
        #expect(by["p02"]?.state == "ready" && by["p02"]?.attempts == 2, "\(String(describing: by["p02"]))")
        #expect(by["p03"].map { $0.state == "failed" || $0.state == "refused" } == true)
        #expect(by["p03"]?.attempts == 1 && by["p03"]?.costClass == "paid")
        #expect(by["p03"]?.lastError?.contains("PAGE-03-SIZE") == true, "\(String(describing: by["p03"]))")
        #expect(by["p03"]?.image == nil)
        #expect(status.counts["ready"] == 4)
        #expect(!result.stdout.contains(testKey))
        try expectValid(result.stdoutData)

        let text = try run(try Repository.binary.path, ["illustrate", url.path, "--status"], environment: environment())
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("page 3 of 4 (p03): ") && text.stdout.contains("PAGE-03-SIZE"), "\(text.stdout)")
        #expect(try server.requests().count == calls)
    }

    /// From the command line: a --draft run's pictures show as drafts in --status (valid against the
    /// schema), and --draft-model alone is a usage error.
    @Test func draftsShowInStatusUntilAPrintRunReplacesThem() throws {
        let dir = try temporaryDirectory("status-draft")
        let url = try makeBook(pages: 2, in: dir, characterImage: false)
        let cache = dir.appendingPathComponent("cache").path
        let usage = try run(try Repository.binary.path, ["illustrate", url.path, "--provider", "local", "--draft-model", "x"], environment: environment())
        #expect(usage.status == 64 && usage.stderr.contains("--draft"), "\(usage.status): \(usage.stderr)")

        let draft = try run(try Repository.binary.path, ["illustrate", url.path, "--provider", "local", "--draft", "--cache", cache], environment: environment())
        #expect(draft.status == 0, "\(draft.stderr)")
        #expect(draft.stderr.contains("3 draft(s)"), "\(draft.stderr)")
        var result = try run(try Repository.binary.path, ["illustrate", url.path, "--status", "--json"], environment: environment())
        var status = try JSONDecoder().decode(IllustrationStatus.self, from: result.stdoutData)
        #expect(status.counts == ["draft": 3, "ready": 1], "\(status.counts)")
        try expectValid(result.stdoutData)

        let final = try run(try Repository.binary.path, ["illustrate", url.path, "--provider", "local", "--cache", cache], environment: environment())
        #expect(final.status == 0, "\(final.stderr)")
        result = try run(try Repository.binary.path, ["illustrate", url.path, "--status", "--json"], environment: environment())
        status = try JSONDecoder().decode(IllustrationStatus.self, from: result.stdoutData)
        #expect(status.counts == ["ready": 4], "\(status.counts)")
    }

    /// A run killed while a call is under way leaves its picture `generating` in the journal;
    /// `--status` tells that its process is gone.
    @Test func picturesOfARunThatIsGoneAreInterrupted() throws {
        let server = try ProviderServer(["hold_after": 0])
        let dir = try temporaryDirectory("status-gone")
        let url = try makeBook(pages: 2, in: dir)
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL, "--cache", dir.appendingPathComponent("cache").path]
        p.environment = environment(["OPENAI_API_KEY": testKey])
        let errors = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: errors)
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        // The cover and page 1 are scheduled together and the first call goes alone (the gate
        // waits for the provider's first answer): which of them makes it is the order their tasks
        // start in, so either may be the one under way.
        func underWay() -> [String] {
            ((try? IllustrationStatus.read(bookAt: url))?.pictures ?? []).filter { $0.state == "generating" }.map(\.key)
        }
        // Bounded for a hang only: on a machine busy with other tests the run takes a while to call.
        let deadline = Date().addingTimeInterval(180)
        while underWay().isEmpty, Date() < deadline, p.isRunning { usleep(20_000) }
        let calling = underWay()
        #expect(calling.count == 1 && ["cover", "p01"].contains(calling.first ?? ""),
                "a live run's call is under way: \(calling); \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")

        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let result = try run(try Repository.binary.path, ["illustrate", url.path, "--status", "--json"], environment: environment())
        #expect(result.status == 0, "\(result.stderr)")
        let status = try JSONDecoder().decode(IllustrationStatus.self, from: result.stdoutData)
        let states = Dictionary(uniqueKeysWithValues: status.pictures.map { ($0.key, $0.state) })
        // The picture whose call was under way is interrupted. The other of the cover and page 1
        // was either given its place, waiting for the first answer (interrupted too), or not yet
        // scheduled when the run was killed (pending); page 2 waited for page 1, its style reference.
        let other = calling.first == "cover" ? "p01" : "cover"
        #expect(states[calling.first ?? ""] == "interrupted" && ["interrupted", "pending"].contains(states[other] ?? "")
                && states["p02"] == "pending" && states.count == 3, "\(states)")
        #expect(status.counts["interrupted"] == states.values.filter { $0 == "interrupted" }.count)
        try expectValid(result.stdoutData)
        try server.script([:])
    }

    /// The journal names its run by process id and start time: another process given the same id
    /// later is not taken for the run.
    @Test func aProcessIdGivenToAnotherProcessIsNotTakenForTheRun() throws {
        let dir = try temporaryDirectory("status-pid")
        let url = try makeBook(pages: 1, in: dir)
        let started = try #require(JournalRun.startTime(of: getpid()))
        for (start, state) in [(started, "generating"), (started + 1, "interrupted")] {
            let file = JournalFile(book: "book.json", provider: "openai", model: "gpt-image-1",
                                   pages: ["cover": JournalEntry(label: "cover", state: .generating, attempt: 1)],
                                   run: JournalRun(pid: getpid(), started: start))
            try JSONEncoder().encode(file).write(to: dir.appendingPathComponent("book.illustrate.json"))
            #expect(try IllustrationStatus.read(bookAt: url).pictures.map(\.state) == [state], "started at \(start)")
        }
    }

    @Test func statusBeforeAnyRunIsEmptyAndValid() throws {
        let dir = try temporaryDirectory("status-none")
        let url = try makeBook(pages: 2, in: dir)
        let status = try IllustrationStatus.read(bookAt: url)
        #expect(!status.journalFound && status.pictures.isEmpty && status.journal == "book.illustrate.json")
        let result = try run(try Repository.binary.path, ["illustrate", url.path, "--status", "--json"], environment: environment())
        #expect(result.status == 0, "\(result.stderr)")
        try expectValid(result.stdoutData)
    }

    @Test func aCacheHitCostsNothing() async throws {
        let server = try ProviderServer()
        let dir = try temporaryDirectory("status-cache")
        let cache = dir.appendingPathComponent("cache")
        let first = try makeBook(pages: 1, in: dir.appendingPathComponent("a"))
        _ = try await Illustrator.run(bookAt: first, options: options(.openai, server: server, cache: cache))
        let second = try makeBook(pages: 1, in: dir.appendingPathComponent("b"))
        _ = try await Illustrator.run(bookAt: second, options: options(.openai, server: server, cache: cache))
        let status = try IllustrationStatus.read(bookAt: second)
        #expect(status.pictures.map(\.state) == ["ready", "ready"])
        #expect(status.pictures.map(\.attempts) == [0, 0])
        #expect(status.pictures.map(\.costClass) == ["none", "none"])
    }

    @Test func aJournalThatIsNotOneIsNamed() throws {
        let dir = try temporaryDirectory("status-bad")
        let url = try makeBook(pages: 1, in: dir)
        try Data("{\"pages\": 3}".utf8).write(to: dir.appendingPathComponent("book.illustrate.json"))
        let error = #expect(throws: (any Error).self) { try IllustrationStatus.read(bookAt: url) }
        #expect(error.map { "\($0)".contains("book.illustrate.json is not an illustrate journal") } == true, "\(String(describing: error))")
    }

    @Test func eventsFollowEachPicturesStatesThenTheSummary() async throws {
        let server = try scriptedServer()
        let dir = try temporaryDirectory("events")
        let url = try makeBook(pages: 4, in: dir, characterImage: false)
        let lines = Lines()
        var opts = options(.openai, server: server, cache: dir.appendingPathComponent("cache"))
        opts.events = { lines.add($0.jsonLine) }
        _ = try await Illustrator.run(bookAt: url, options: opts)
        let events = try lines.all.map { try JSONDecoder().decode(IllustrationEvent.self, from: Data($0.utf8)) }
        try checkOrder(events)
    }

    @Test func eventsReachStdoutAsJSONLines() throws {
        let server = try scriptedServer()
        let dir = try temporaryDirectory("events-cli")
        let url = try makeBook(pages: 4, in: dir, characterImage: false)
        let result = try run(try Repository.binary.path,
                             ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL, "--concurrency", "2",
                              "--cache", dir.appendingPathComponent("cache").path, "--events"],
                             environment: environment(["OPENAI_API_KEY": testKey, "BOOKRENDER_RETRY_BASE": "0.01"]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(testKey))
        let events = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(IllustrationEvent.self, from: Data($0.utf8)) }
        try checkOrder(events)

        let file = dir.appendingPathComponent("events.jsonl")
        let again = try run(try Repository.binary.path,
                            ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL,
                             "--cache", dir.appendingPathComponent("cache").path, "--events-file", file.path],
                            environment: environment(["OPENAI_API_KEY": testKey, "BOOKRENDER_RETRY_BASE": "0.01"]))
        // Its one picture fails again: a run that made none of its pictures exits 70.
        #expect(again.status == 70, "\(again.stderr)")
        #expect(again.stdout.isEmpty)
        let written = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(IllustrationEvent.self, from: Data($0.utf8)) }
        #expect(written.last?.event == .summary && written.last?.needed == 1, "only page 3 was left to try again")
        #expect(written.filter { $0.event == .state }.allSatisfy { $0.key == "p03" })
    }

    /// The book has a character to make, a cover and 4 pages; page 2 is retried once, page 3 fails.
    func checkOrder(_ events: [IllustrationEvent]) throws {
        #expect(events.last?.event == .summary)
        #expect(events.filter { $0.event == .summary }.count == 1)
        let summary = try #require(events.last)
        #expect(summary.needed == 6 && summary.ready == 5 && summary.failed == 1 && summary.calls == 7)
        func states(_ key: String) -> [String] { events.filter { $0.key == key }.compactMap(\.state) }
        #expect(states("character") == ["pending", "generating", "ready"])
        #expect(states("cover") == ["pending", "scheduled", "generating", "ready"])
        #expect(states("p01") == ["pending", "scheduled", "generating", "ready"])
        #expect(states("p02") == ["pending", "scheduled", "generating", "retrying", "generating", "ready"])
        #expect(states("p04") == ["pending", "scheduled", "generating", "ready"])
        let p03 = states("p03")
        #expect(p03.prefix(3) == ["pending", "scheduled", "generating"] && ["failed", "refused"].contains(p03.last), "\(p03)")
        #expect(events.last { $0.key == "p03" }?.reason?.contains("PAGE-03-SIZE") == true)
        #expect(events.first { $0.key == "p02" && $0.state == "retrying" }?.attempt == 2)
        #expect(events.last { $0.key == "cover" }?.image?.hasPrefix("images/generated-cover-") == true)
        // The character comes before any other picture is asked for; the first page before the rest.
        func index(_ key: String, _ state: String) -> Int? { events.firstIndex { $0.key == key && $0.state == state } }
        let characterReady = try #require(index("character", "ready"))
        for key in ["cover", "p01", "p02", "p03", "p04"] { #expect((index(key, "generating") ?? -1) > characterReady, "\(key)") }
        let firstReady = try #require(index("p01", "ready"))
        for key in ["p02", "p03", "p04"] { #expect((index(key, "scheduled") ?? -1) > firstReady, "\(key)") }
    }

    func expectValid(_ json: Data) throws {
        guard let violations = try JSONSchemaCheck.violations(of: json, against: Self.schema) else {
            Issue.record("Python's jsonschema module is missing: run scripts/install-deps.sh (it installs python3-jsonschema)")
            return
        }
        #expect(violations.isEmpty, "\(violations)")
    }
}
