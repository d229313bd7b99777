import Foundation
import Testing
import BookModel
@testable import BookIllustrate
import BookTestSupport

/// The built `bookrender` binary: kill -9 and resume, keys, app files, export --fill-missing.
@Suite struct IllustrateCommandTests {
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["OPENAI_API_KEY"] = nil; env["GEMINI_API_KEY"] = nil; env["OPENROUTER_API_KEY"] = nil
        env["http_proxy"] = nil; env["https_proxy"] = nil; env["HTTP_PROXY"] = nil; env["HTTPS_PROXY"] = nil
        return env.merging(extra) { _, b in b }
    }

    func readyKeys(_ journal: URL) -> Set<String> {
        guard let data = try? Data(contentsOf: journal),
              let file = try? JSONDecoder().decode(JournalFile.self, from: data) else { return [] }
        return Set(file.pages.filter { $0.value.state == .ready }.map(\.key))
    }

    @Test func killedRunResumesWithoutCallingAgainForReadyPages() async throws {
        let server = try ProviderServer(["latency": 0.8])  // slow enough that a busy test process still sees the run mid-way
        let dir = try temporaryDirectory("kill")
        let url = try makeBook(pages: 7, in: dir)
        let journal = dir.appendingPathComponent("book.illustrate.json")
        let p = Process()
        p.executableURL = try Repository.binary
        p.arguments = ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL, "--concurrency", "1",
                       "--cache", dir.appendingPathComponent("cache-1").path]
        p.environment = environment(["OPENAI_API_KEY": testKey])
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Bounded for a hang only: a busy machine makes the run slower, never the check weaker.
        let deadline = Date().addingTimeInterval(180)
        // A blocking poll, not Task.sleep: with the whole suite running, a suspended test task can
        // wait seconds for a cooperative thread and miss the run's middle.
        while readyKeys(journal).count < 3, Date() < deadline, p.isRunning { usleep(20_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let readyAtKill = readyKeys(journal)
        let journalAtKill = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
        #expect(readyAtKill.count >= 3 && readyAtKill.count < 8, "\(readyAtKill)")

        // A fresh cache: only the journal can spare the calls.
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL,
                                                 "--cache", dir.appendingPathComponent("cache-2").path],
                        environment: environment(["OPENAI_API_KEY": testKey]))
        #expect(r.status == 0, "\(r.stderr)")
        // Every picture the journal held at the kill was asked for exactly once over both runs.
        let calls = try server.requests().map { marker($0.prompt) }
        for key in readyAtKill {
            let m = key == "cover" ? "cover" : String(key.dropFirst())
            #expect(calls.filter { $0 == m }.count == 1, "\(key) asked for again: \(calls)\n\(journalAtKill)\n\(r.stderr)")
        }
        // At most the one call in flight at the kill is made again (the server logs it, if at all,
        // when its answer is out, which may be before or during the second run).
        #expect(calls.count <= 9, "\(calls)")
        #expect(Set(calls).count == 8)
        let book = try loadBook(url)
        #expect(book.pages.allSatisfy { $0.picture?.image != nil })
        #expect(book.cover?.photo != nil)
        #expect(readyKeys(journal).count == 8)
    }

    /// A first Ctrl-C (or a first SIGTERM, as a scheduler or `kill` sends) while calls are under
    /// way: no new call starts, the calls the provider is finishing (and billing) are waited for
    /// and kept, the summary is given, and the run ends by the signal; the run that resumes does
    /// not ask for those pictures again.
    @Test(arguments: [SIGINT, SIGTERM]) func anInterruptedRunKeepsTheCallsInFlight(signal: Int32) throws {
        // The cover and page 1 are answered; pages 2 to 4 are held until the test lets them go.
        let server = try ProviderServer(["hold_after": 2])
        let dir = try temporaryDirectory("interrupt-\(signal)")
        let url = try makeBook(pages: 6, in: dir)
        let events = dir.appendingPathComponent("events.jsonl")
        let held = try HeldRun(url, server: server, ["--cache", dir.appendingPathComponent("cache-1").path, "--timeout", "30",
                                                    "--events-file", events.path], environment: environment(["OPENAI_API_KEY": testKey]))
        defer { held.end() }
        let p = held.process, lines = held.lines
        func generating() -> Set<String> { Set(held.states().filter { $0.value == .generating }.map(\.key)) }
        var deadline = Date().addingTimeInterval(180)
        while generating() != ["p02", "p03", "p04"], Date() < deadline, p.isRunning { usleep(20_000) }
        #expect(generating() == ["p02", "p03", "p04"], "\(lines.text)")

        kill(p.processIdentifier, signal)
        deadline = Date().addingTimeInterval(60)
        while !lines.text.contains("interrupt again to stop at once"), Date() < deadline, p.isRunning { usleep(20_000) }
        try server.script([:])
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == signal,
                "ended by \(p.terminationReason == .uncaughtSignal ? "signal" : "exit") \(p.terminationStatus)")
        held.waitForStderr()
        let file = try JSONDecoder().decode(JournalFile.self, from: Data(contentsOf: held.journal))
        let states = file.pages.mapValues(\.state)
        #expect(states == ["cover": .ready, "p01": .ready, "p02": .ready, "p03": .ready, "p04": .ready, "p05": .pending, "p06": .pending],
                "\(states)\n\(lines.text)")
        #expect(lines.text.contains("illustrate: 5 of 7 picture(s) ready; 5 call(s) made"), "\(lines.text)")
        #expect(lines.text.contains("interrupted, 2 left for a later run"), "\(lines.text)")
        let summary = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").last
            .map { try JSONDecoder().decode(IllustrationEvent.self, from: Data($0.utf8)) }
        #expect(summary?.event == .summary && summary?.ready == 5 && summary?.interrupted == true, "\(String(describing: summary))")
        let book = try loadBook(url)
        #expect(book.pages.map { $0.picture?.image != nil } == [true, true, true, true, false, false])
        #expect(try server.requests().count == 5)

        // A fresh cache: only what the interrupted run kept spares the calls.
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL,
                                                 "--cache", dir.appendingPathComponent("cache-2").path],
                        environment: environment(["OPENAI_API_KEY": testKey]))
        #expect(r.status == 0, "\(r.stderr)")
        let calls = try server.requests().map { marker($0.prompt) }
        #expect(calls.sorted() == ["01", "02", "03", "04", "05", "06", "cover"], "\(calls)")
    }

    /// A second signal while the first waits for calls in flight stops the run at once: the held
    /// calls are not waited for, and what was made before stays in the book and the journal.
    @Test func aSecondSignalStopsAtOnce() throws {
        let server = try ProviderServer(["hold_after": 2])
        defer { try? server.script([:]) }
        let dir = try temporaryDirectory("interrupt-twice")
        let url = try makeBook(pages: 6, in: dir)
        let held = try HeldRun(url, server: server, ["--cache", dir.appendingPathComponent("cache").path, "--timeout", "120"],
                              environment: environment(["OPENAI_API_KEY": testKey]))
        defer { held.end() }
        let p = held.process, lines = held.lines, states = held.states
        var deadline = Date().addingTimeInterval(180)
        while !held.isHeld(), Date() < deadline, p.isRunning { usleep(20_000) }
        kill(p.processIdentifier, SIGINT)
        deadline = Date().addingTimeInterval(60)
        while !lines.text.contains("interrupt again to stop at once"), Date() < deadline, p.isRunning { usleep(20_000) }
        #expect(p.isRunning, "the first signal waits for the held calls: \(lines.text)")
        kill(p.processIdentifier, SIGINT)
        // The held calls are never answered: only a run that stops at once ends here.
        deadline = Date().addingTimeInterval(30)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        #expect(!p.isRunning, "a second signal ends the run without waiting for the held calls")
        if p.isRunning { return }
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGINT)
        // The two answered before the hold (the first call, then whichever went next) stay made.
        #expect(states().values.filter { $0 == .ready }.count == 2, "\(states())")
        let made = try loadBook(url).pages.enumerated().filter { $0.element.picture?.image != nil }.map { String(format: "p%02d", $0.offset + 1) }
        #expect(made.allSatisfy { states()[$0] == .ready } && !made.isEmpty == (states()["p01"] == .ready), "\(made) \(states())")
    }

    /// The reader of `--events` going away (a closed pipe) while calls are under way ends the run
    /// as a first Ctrl-C does, not as a crash: the calls in flight are kept, the journal says what
    /// is left, and nothing says `generating` after it.
    @Test func aClosedPipeEndsTheRunAndKeepsTheCallsInFlight() throws {
        let server = try ProviderServer(["hold_after": 2])
        let dir = try temporaryDirectory("closed-pipe")
        let url = try makeBook(pages: 6, in: dir)
        let stdout = Pipe()
        let held = try HeldRun(url, server: server, ["--cache", dir.appendingPathComponent("cache").path, "--timeout", "30", "--events"],
                              environment: environment(["OPENAI_API_KEY": testKey]), stdout: stdout)
        defer { held.end() }
        let p = held.process, states = held.states
        let deadline = Date().addingTimeInterval(180)
        while !held.isHeld(), Date() < deadline, p.isRunning { usleep(20_000) }
        #expect(held.isHeld(), "\(states())")
        try stdout.fileHandleForReading.close()
        try server.script([:])
        p.waitUntilExit()
        #expect(p.terminationReason == .exit, "ended by signal \(p.terminationStatus), not by the run's own end")
        #expect(states() == ["cover": .ready, "p01": .ready, "p02": .ready, "p03": .ready, "p04": .ready, "p05": .pending, "p06": .pending],
                "\(states())")
        #expect(try server.requests().count == 5, "no call started after the reader went")
    }

    @Test func keyAppearsInNoOutputOrFile() async throws {
        let server = try ProviderServer(["rules": [["contains": "SCENE-02", "responses": [["kind": "echo_key", "status": 401]]]]])
        let dir = try temporaryDirectory("key")
        let url = try makeBook(pages: 3, in: dir)
        let cache = dir.appendingPathComponent("cache")
        let env = environment(["OPENAI_API_KEY": testKey, "GEMINI_API_KEY": testKey, "OPENROUTER_API_KEY": testKey])
        var outputs: [String] = []
        for args in [["--dry-run"], [], ["--provider", "gemini", "--model", "bad model"], []] {
            let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL,
                                                     "--cache", cache.path] + args, environment: env)
            outputs += [r.stdout, r.stderr]
        }
        #expect(outputs.joined().contains("Incorrect API key provided: [key]"))
        #expect(try server.requests().contains { $0.headers["authorization"] == "Bearer \(testKey)" })
        for (i, o) in outputs.enumerated() { #expect(!o.contains(testKey), "output \(i) holds the key") }
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
        #expect(files.count > 5)
        for f in files {
            guard let data = try? Data(contentsOf: f) else { continue }
            #expect(data.range(of: Data(testKey.utf8)) == nil, "\(f.path) holds the key")
        }
    }

    @Test func appFileIsLeftAloneAndTheFilledBookWrittenBesideIt() throws {
        let dir = try temporaryDirectory("app")
        let app = dir.appendingPathComponent("story.json")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("apps/roger/story.json"), to: app)
        let before = try Data(contentsOf: app)
        let r = try run(Repository.binary.path, ["illustrate", app.path, "--provider", "local", "--cache", dir.appendingPathComponent("cache").path],
                        environment: environment())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("story.book.json"))
        #expect(try Data(contentsOf: app) == before)
        let filled = try BookLoader.load(contentsOf: dir.appendingPathComponent("story.book.json"))
        #expect(filled.source == .bookJSON)
        #expect(filled.book.pages.filter { $0.type == .illustration }.allSatisfy { $0.picture?.image != nil })
    }

    @Test func exportFillMissingFillsTheSamplesMissingPage() throws {
        let dir = try temporaryDirectory("fill")
        let copy = dir.appendingPathComponent("storybook")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("storybook"), to: copy)
        let before = try loadBook(copy.appendingPathComponent("book.json"))
        let missing = before.pages.indices.filter { [.illustration, .spread].contains(before.pages[$0].type) && before.pages[$0].picture?.image == nil }
        #expect(!missing.isEmpty)
        let r = try run(Repository.binary.path, ["export", copy.appendingPathComponent("book.json").path, "--fill-missing", "--provider", "local",
                                                 "--cache", dir.appendingPathComponent("cache").path,
                                                 "-o", dir.appendingPathComponent("out.pdf").path, "--png", dir.appendingPathComponent("png").path, "--dpi", "30"],
                        environment: environment())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("placeholder"), "\(r.stderr)")
        let after = try loadBook(copy.appendingPathComponent("book.json"))
        for i in missing {
            guard case .path(let p)? = after.pages[i].picture?.image else { Issue.record("page \(i + 1) still empty"); continue }
            #expect(p.hasPrefix("images/generated-"))
            #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent(p).path))
        }
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.pdf").path))
    }

    /// A scheme in capitals is the same scheme: the pictures are asked for and made.
    @Test func anUpperCaseSchemeIsTheSameAddress() throws {
        let server = try ProviderServer(["key": testKey])
        let dir = try temporaryDirectory("upper-scheme")
        let url = try makeBook(pages: 2, in: dir)
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai",
                                                 "--base-url", server.baseURL.replacingOccurrences(of: "http://", with: "HTTP://"),
                                                 "--cache", dir.appendingPathComponent("cache").path],
                        environment: environment(["OPENAI_API_KEY": testKey]))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("illustrate: 3 of 3 picture(s) ready; 3 call(s) made"), "\(r.stderr)")
        #expect(try server.requests().count == 3)
        #expect(try loadBook(url).pages.allSatisfy { $0.picture?.image != nil })
    }

    /// A run that made none of its pictures did not succeed, whatever each failure was.
    @Test func aRunWhereEveryPictureFailedDoesNotExitZero() throws {
        let refusal: [String: Any] = ["status": 400, "json": ["error": ["message": "Your request was rejected by the safety system.",
                                                                        "type": "image_generation_user_error", "code": "moderation_blocked"]]]
        let server = try ProviderServer(["rules": [["contains": "", "responses": Array(repeating: refusal, count: 10)]]])
        let dir = try temporaryDirectory("all-failed")
        let url = try makeBook(pages: 2, in: dir)
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openai", "--base-url", server.baseURL,
                                                 "--cache", dir.appendingPathComponent("cache").path],
                        environment: environment(["OPENAI_API_KEY": testKey]))
        #expect(r.status == 70, "\(r.status): \(r.stderr)")
        #expect(r.stderr.contains("illustrate: 0 of 3 picture(s) ready; 3 call(s) made"), "\(r.stderr)")
        #expect(r.stderr.contains("error: no picture was made: all 3 failed (cover: openai HTTP 400: moderation_blocked"), "\(r.stderr)")
    }

    /// `--base-url` replaces everything before the API path, a path prefix included, as its help says.
    @Test func theBaseURLKeepsItsPathPrefixAndTheHelpSaysSo() throws {
        let server = try ProviderServer(["key": testKey])
        let dir = try temporaryDirectory("base-url-prefix")
        let url = try makeBook(pages: 1, in: dir)
        let r = try run(Repository.binary.path, ["illustrate", url.path, "--provider", "openrouter", "--base-url", server.baseURL + "/proxy/",
                                                 "--cache", dir.appendingPathComponent("cache").path],
                        environment: environment(["OPENROUTER_API_KEY": testKey]))
        #expect(r.status == 0, "\(r.stderr)")
        let paths = Set(try server.requests().map(\.path))
        #expect(paths == ["/proxy/v1/chat/completions"], "\(paths)")
        let help = try run(Repository.binary.path, ["illustrate", "--help"], environment: environment())
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Replace everything before the API path (scheme, host, port, path prefix)"), "\(help.stdout)")
        #expect(text.contains("/v1/images/edits, is appended"), "\(help.stdout)")
    }
}
