import Foundation
import Testing
import BookTestSupport

/// Books sent to the service come back as the same PDF the command line writes for them.
@Suite(.serialized) struct ServeRenderTests {
    /// `bookrender export BOOK -o PDF`, the reference each served PDF must equal byte for byte.
    func cliPDF(_ book: URL, in dir: URL, _ extra: [String] = []) throws -> Data {
        let pdf = dir.appendingPathComponent("cli-\(UUID().uuidString).pdf")
        let r = try run(try Repository.binary.path, ["export", book.path, "-o", pdf.path, "-q"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try Data(contentsOf: pdf)
    }

    @Test func sampleBooksAndAppFilesRenderAsTheCommandLineDoes() async throws {
        let dir = try temporaryDirectory("serve-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"), arguments: ["--workers", "2"])
        defer { _ = server.stop() }

        // The storybook as a zip of its folder.
        let zip = dir.appendingPathComponent("zip/storybook.zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TestZip.folder(Repository.samples.appendingPathComponent("storybook"), at: zip)
        var submitted: [(String, URL)] = [(try await server.submit(try Data(contentsOf: zip), type: "application/zip", query: "?png=false"),
                                           Repository.samples.appendingPathComponent("storybook/book.json"))]
        // The memoir as book.json with its pictures inline, as data: URIs.
        let memoir = Repository.samples.appendingPathComponent("memoir/book.json")
        submitted.append((try await server.submit(try inlined(memoir), type: "application/json", query: "?png=false"), memoir))
        // The three apps' own files, as the apps save them.
        for app in ["memoirai/storybook.json", "roger/story.json", "infinitestories/story.json"] {
            let file = Repository.samples.appendingPathComponent("apps/\(app)")
            submitted.append((try await server.submit(try Data(contentsOf: file), type: "application/json", query: "?png=false"), file))
        }
        for (id, book) in submitted {
            let events = try await server.events(id)
            #expect(events.first?.name == "status", "\(book.lastPathComponent): the stream starts with the job's status")
            #expect(events.last?.name == "end" && events.last?.data["state"] as? String == "done",
                    "\(book.path): \(events.last?.text ?? "no events"); \(events.map(\.text).joined(separator: "\n"))")
            let pdf = try await server.call(.GET, "/v1/jobs/\(id)/pdf")
            #expect(pdf.status == 200 && pdf.headers["content-type"] == "application/pdf")
            #expect(pdf.body == (try cliPDF(book, in: dir)), "\(book.path): the served PDF differs from `bookrender export`'s")
            let report = try await server.call(.GET, "/v1/jobs/\(id)/report")
            let pageCount = try await server.call(.GET, "/v1/jobs/\(id)").json["pageCount"] as? Int
            #expect(report.status == 200 && report.json["pageCount"] as? Int == pageCount && pageCount != nil)
        }
    }

    @Test func pagePNGsAndStatusStreamAsTheJobRuns() async throws {
        let dir = try temporaryDirectory("serve-pages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"))
        defer { _ = server.stop() }
        let book = Repository.samples.appendingPathComponent("memoir/book.json")
        let accepted = try await server.call(.POST, "/v1/jobs?dpi=40", body: try inlined(book), type: "application/json")
        #expect(accepted.status == 202)
        try expectMatchesOpenAPI(accepted.body, "JobStatus")
        let id = try #require(accepted.json["id"] as? String)
        #expect(accepted.headers["location"] == "/v1/jobs/\(id)")
        // Before the job is done its files are refused with a reason, never served half-written.
        let early = try await server.call(.GET, "/v1/jobs/\(id)/pdf")
        if early.status != 200 {
            #expect(early.status == 409 && early.errorCode == "notReady", "\(early.errorMessage)")
        }
        let events = try await server.events(id)
        let states = events.filter { $0.name == "status" }.compactMap { $0.data["state"] as? String }
        #expect(states.last == "done")
        let pages = events.filter { $0.name == "page" }
        // Page 1 is rendered alone first, and every page's event comes before the job's "done".
        let firstPage = try #require(events.firstIndex { $0.name == "page" })
        let lastPage = try #require(events.lastIndex { $0.name == "page" })
        let done = try #require(events.firstIndex { $0.name == "status" && $0.data["state"] as? String == "done" })
        #expect(pages.first?.data["number"] as? Int == 1 && firstPage < done && lastPage < done, "\(events.map(\.name))")
        let statusReply = try await server.call(.GET, "/v1/jobs/\(id)")
        try expectMatchesOpenAPI(statusReply.body, "JobStatus")
        let status = statusReply.json
        let count = try #require(status["pageCount"] as? Int)
        #expect(pages.count == count, "one page event per page PNG")
        let first = try await server.call(.GET, "/v1/jobs/\(id)/pages/1.png")
        #expect(first.status == 200 && first.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let missing = try await server.call(.GET, "/v1/jobs/\(id)/pages/\(count + 1).png")
        #expect(missing.status == 404 && missing.errorCode == "noSuchPage")
        try expectMatchesOpenAPI(missing.body, "Error")
        let unknown = try await server.call(.GET, "/v1/jobs/0123456789abcdef0123")
        #expect(unknown.status == 404 && unknown.errorCode == "noSuchJob")
        let metrics = String(decoding: try await server.call(.GET, "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("bookrender_serve_jobs{state=\"done\"} 1"))
        #expect(metrics.contains("bookrender_serve_queue_length 0"))
        #expect(metrics.contains("bookrender_serve_render_seconds_count 1"))
    }

    /// `preview=N`: the first N pages marked, as the command line's `export --preview` writes them.
    @Test func aPreviewIsTheFirstPagesAsTheCommandLineWritesThem() async throws {
        let dir = try temporaryDirectory("serve-preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"))
        defer { _ = server.stop() }
        let book = Repository.samples.appendingPathComponent("apps/memoirai/storybook.json")
        let id = try await server.submit(try Data(contentsOf: book), type: "application/json", query: "?preview=2")
        #expect(try await server.wait(id)["state"] as? String == "done")
        let status = try await server.call(.GET, "/v1/jobs/\(id)").json
        #expect(status["pageCount"] as? Int == 2)
        let pdf = try await server.call(.GET, "/v1/jobs/\(id)/pdf")
        #expect(pdf.status == 200)
        #expect(pdf.body == (try cliPDF(book, in: dir, ["--preview", "2"])), "the served preview differs from `bookrender export --preview 2`'s")
        let page = try await server.call(.GET, "/v1/jobs/\(id)/pages/2.png")
        #expect(page.status == 200)
        let cli = dir.appendingPathComponent("cli-png")
        #expect(try run(try Repository.binary.path, ["export", book.path, "--preview", "2", "--png", cli.path, "-q"]).status == 0)
        #expect(page.body == (try Data(contentsOf: cli.appendingPathComponent("page-002.png"))), "at the preview's 96 dpi")
        let third = try await server.call(.GET, "/v1/jobs/\(id)/pages/3.png")
        #expect(third.status == 404)
        let refused = try await server.call(.POST, "/v1/jobs?preview=0", body: try Data(contentsOf: book), type: "application/json")
        #expect(refused.status == 400 && refused.errorCode == "invalidOption")
    }

    @Test func aQueuedJobCanBeCancelled() async throws {
        let dir = try temporaryDirectory("serve-cancel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"))
        defer { _ = server.stop() }
        let book = try inlined(Repository.samples.appendingPathComponent("memoir/book.json"))
        // One worker: the second job waits in the queue behind the first.
        let first = try await server.submit(book, type: "application/json", query: "?png=false")
        let second = try await server.submit(book, type: "application/json", query: "?png=false&theme=picture-book")
        let cancelled = try await server.call(.DELETE, "/v1/jobs/\(second)")
        #expect(cancelled.status == 200)
        let end = try await server.wait(second)
        #expect(end["state"] as? String == "cancelled")
        let pdf = try await server.call(.GET, "/v1/jobs/\(second)/pdf")
        #expect(pdf.status == 409 && pdf.errorCode == "noOutput")
        #expect(try await server.wait(first)["state"] as? String == "done")
    }
}

/// The book with every picture it names replaced by a data: URI.
func inlined(_ book: URL) throws -> Data {
    let folder = book.deletingLastPathComponent()
    func walk(_ value: Any) -> Any {
        switch value {
        case let s as String where s.hasSuffix(".jpg") || s.hasSuffix(".png"):
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(s)) else { return s }
            return "data:image/\(s.hasSuffix(".png") ? "png" : "jpeg");base64,\(data.base64EncodedString())"
        case let a as [Any]: return a.map(walk)
        case let d as [String: Any]: return d.mapValues(walk)
        default: return value
        }
    }
    return try JSONSerialization.data(withJSONObject: walk(try JSONSerialization.jsonObject(with: Data(contentsOf: book))))
}
