import Foundation
import Testing
import BookTestSupport

/// Requests without the token, bodies too large and hostile zips are refused with errors that say what to do.
@Suite(.serialized) struct ServeSafetyTests {
    @Test func aMissingOrWrongTokenIsRefused() async throws {
        let dir = try temporaryDirectory("serve-token")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"))
        defer { _ = server.stop() }
        let book = try Data(contentsOf: Repository.samples.appendingPathComponent("apps/roger/story.json"))
        let none = try await server.call(.POST, "/v1/jobs", body: book, type: "application/json", token: .some(nil))
        #expect(none.status == 401 && none.errorCode == "unauthorized" && none.errorMessage.contains("Authorization: Bearer"))
        #expect(none.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        let wrong = try await server.call(.GET, "/v1/jobs/0123456789abcdef0123", token: "not-the-token")
        #expect(wrong.status == 401 && wrong.errorMessage.contains("wrong"))
        let metrics = try await server.call(.GET, "/metrics", token: .some(nil))
        #expect(metrics.status == 401)
        // Nothing was queued by the refused requests.
        let jobs = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("data/jobs").path)
        #expect(jobs.isEmpty)
        // The health check answers without a token, for load balancers.
        #expect(try await server.call(.GET, "/healthz", token: .some(nil)).status == 200)
    }

    @Test func openAccessIsOnlyForLoopback() throws {
        let dir = try temporaryDirectory("serve-noauth")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(try Repository.binary.path, ["serve", "--data", dir.path, "--no-auth", "--host", "0.0.0.0", "--port", "0"])
        #expect(r.status == 64 && r.stderr.contains("--no-auth is allowed only on a loopback address"), "\(r.stderr)")
        var env = ProcessInfo.processInfo.environment
        env["BOOKRENDER_SERVE_TOKEN"] = nil
        let noToken = try run(try Repository.binary.path, ["serve", "--data", dir.path, "--port", "0"], environment: env)
        #expect(noToken.status == 64 && noToken.stderr.contains("BOOKRENDER_SERVE_TOKEN"), "\(noToken.stderr)")
    }

    @Test func aSecondServiceOnTheSameDataFolderIsRefused() throws {
        let dir = try temporaryDirectory("serve-twice")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data")
        let first = try ServeProcess(data: data)
        defer { _ = first.stop() }
        var env = ProcessInfo.processInfo.environment
        env["BOOKRENDER_SERVE_TOKEN"] = "test-token"
        let second = try run(try Repository.binary.path, ["serve", "--data", data.path, "--port", "0"], environment: env)
        #expect(second.status != 0 && second.stderr.contains("another bookrender serve uses"), "\(second.stderr)")
    }

    @Test func oversizeBodiesAndHostileZipsAreRefused() async throws {
        let dir = try temporaryDirectory("serve-hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data")
        let server = try ServeProcess(data: data, arguments: ["--max-body-bytes", "300000", "--max-unpacked-bytes", "1000000",
                                                              "--max-zip-entries", "20", "--max-text-length", "10000",
                                                              "--max-image-pixels", "1000000"])
        defer { _ = server.stop() }
        let big = try await server.call(.POST, "/v1/jobs", body: Data(count: 400_000), type: "application/zip")
        #expect(big.status == 413 && big.errorCode == "bodyTooLarge" && big.errorMessage.contains("--max-body-bytes"))
        // Sent without a length, the body is refused once it passes the limit.
        let streamed = try await server.call(.POST, "/v1/jobs", body: Data(repeating: 0x20, count: 400_000), type: "application/json", stream: true)
        #expect(streamed.status == 413 && streamed.errorCode == "bodyTooLarge", "\(streamed.status) \(streamed.errorMessage)")

        // The export's limits hold when the book is sent: a text too long, a picture of too many pixels.
        let long = try await server.call(.POST, "/v1/jobs", body: try json(tinyBook(text: String(repeating: "word ", count: 2_001))),
                                         type: "application/json")
        #expect(long.status == 413 && long.errorCode == "textTooLong" && long.errorMessage.contains("$.pages[0].text")
                && long.errorMessage.contains("--max-text-length"), "\(long.status) \(long.errorMessage)")
        let wrapped = try await server.call(.POST, "/v1/jobs", body: try json(["book": tinyBook(text: String(repeating: "word ", count: 2_001))]),
                                            type: "application/json")
        #expect(wrapped.status == 413 && wrapped.errorMessage.contains("$.book.pages[0].text"), "\(wrapped.status) \(wrapped.errorMessage)")
        var pixels = tinyBook()
        pixels["cover"] = ["title": "Tiny", "photo": "data:image/png;base64," + pngHeader(width: 2000, height: 2000).base64EncodedString()]
        let huge = try await server.call(.POST, "/v1/jobs", body: try json(pixels), type: "application/json")
        #expect(huge.status == 413 && huge.errorCode == "imageTooLarge" && huge.errorMessage.contains("$.cover.photo")
                && huge.errorMessage.contains("2000 × 2000"), "\(huge.status) \(huge.errorMessage)")

        let book = try Data(contentsOf: Repository.samples.appendingPathComponent("memoir/book.json"))
        func refused(_ name: String, _ entries: [(String, Data)], links: [(String, String)] = []) async throws -> ServeProcess.Reply {
            let folder = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let zip = folder.appendingPathComponent("book.zip")
            try TestZip.make(entries, links: links, at: zip)
            return try await server.call(.POST, "/v1/jobs", body: try Data(contentsOf: zip), type: "application/zip")
        }
        let escape = try await refused("escape", [("book.json", book), ("../../escaped.txt", Data("x".utf8))])
        #expect(escape.status == 400 && escape.errorCode == "zipEscapes" && escape.errorMessage.contains("../../escaped.txt"))
        let absolute = try await refused("absolute", [("book.json", book), ("/tmp/absolute.txt", Data("x".utf8))])
        #expect(absolute.status == 400 && absolute.errorCode == "zipAbsolutePath", "\(absolute.errorMessage)")
        let link = try await refused("link", [("book.json", book)], links: [("images/face.jpg", "/etc/passwd")])
        #expect(link.status == 400 && link.errorCode == "zipLink" && link.errorMessage.contains("images/face.jpg"))
        // Two megabytes of zeros deflate to a few kilobytes: the body is small, what it unpacks to is not.
        let bomb = try await refused("bomb", [("book.json", book), ("images/zeros.png", Data(count: 2_000_000))])
        #expect(bomb.status == 413 && bomb.errorCode == "zipTooLarge" && bomb.errorMessage.contains("--max-unpacked-bytes"))
        let many = try await refused("many", [("book.json", book)] + (0..<30).map { ("f\($0).txt", Data("x".utf8)) })
        #expect(many.status == 413 && many.errorCode == "zipTooManyFiles")
        let notZip = try await server.call(.POST, "/v1/jobs", body: Data("not a zip".utf8), type: "application/zip")
        #expect(notZip.status == 400 && notZip.errorCode == "invalidZip")

        // Nothing escaped, and no refused book was kept.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("escaped.txt").path))
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("escaped.txt").path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("jobs").path).isEmpty)
    }

    @Test func unknownRoutesAndMethodsAnswerInJSON() async throws {
        let server = try SharedServe.server
        let nowhere = try await server.call(.GET, "/v2/nothing")
        #expect(nowhere.status == 404 && nowhere.errorCode == "noSuchRoute" && nowhere.headers["content-type"] == "application/json",
                "\(nowhere.status) \(String(decoding: nowhere.body, as: UTF8.self))")
        try expectMatchesOpenAPI(nowhere.body, "Error")
        let put = try await server.call(.PUT, "/v1/jobs", body: Data("{}".utf8), type: "application/json")
        #expect(put.status == 405 && put.errorCode == "methodNotAllowed", "\(put.status) \(String(decoding: put.body, as: UTF8.self))")
        #expect(put.headers["allow"]?.contains("GET") == true && put.headers["allow"]?.contains("POST") == true, "\(put.headers)")
        let health = try await server.call(.POST, "/healthz", token: .some(nil))
        #expect(health.status == 405 && health.headers["allow"] == "GET", "\(health.status) \(health.headers)")
        let pdf = try await server.call(.DELETE, "/v1/jobs/0123456789abcdef0123/pdf")
        #expect(pdf.status == 405 && pdf.headers["allow"] == "GET", "\(pdf.status)")
    }

    @Test func theBearerSchemeIsReadInAnyCaseAndClientNamesAreHeldToTheirLimit() async throws {
        let server = try SharedServe.server
        for scheme in ["bearer", "BEARER", "Bearer"] {
            let reply = try await server.call(.GET, "/metrics", token: .some(nil), headers: [("Authorization", "\(scheme) test-token")])
            #expect(reply.status == 200, "\(scheme): \(reply.status) \(reply.errorMessage)")
        }
        let basic = try await server.call(.GET, "/metrics", token: .some(nil), headers: [("Authorization", "Basic test-token")])
        #expect(basic.status == 401)
        let book = try json(tinyBook())
        let long = try await server.call(.POST, "/v1/jobs?png=false", body: book, type: "application/json", client: String(repeating: "c", count: 65))
        #expect(long.status == 400 && long.errorCode == "invalidClient" && long.errorMessage.contains("64"), "\(long.status) \(long.errorMessage)")
        let fits = try await server.call(.POST, "/v1/jobs?png=false", body: book, type: "application/json", client: String(repeating: "c", count: 64))
        #expect(fits.status == 202, "\(fits.status) \(fits.errorMessage)")
        if let id = fits.json["id"] as? String { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
    }

    @Test func anInvalidBookOrOptionIsRefusedBeforeItIsQueued() async throws {
        let dir = try temporaryDirectory("serve-invalid")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"), arguments: ["--max-pages", "3"])
        defer { _ = server.stop() }
        let notJSON = try await server.call(.POST, "/v1/jobs", body: Data("hello".utf8), type: "application/json")
        #expect(notJSON.status == 400 && notJSON.errorCode == "invalidJSON")
        let bad = try await server.call(.POST, "/v1/jobs", body: Data(#"{"schema": 1, "kind": "storybook", "pages": 7}"#.utf8), type: "application/json")
        #expect(bad.status == 400 && bad.errorCode == "invalidBook" && bad.errorMessage.contains("$.pages"), "\(bad.errorMessage)")
        let book = try inlined(Repository.samples.appendingPathComponent("memoir/book.json"))
        let tooLong = try await server.call(.POST, "/v1/jobs", body: book, type: "application/json")
        #expect(tooLong.status == 413 && tooLong.errorCode == "tooManyPages" && tooLong.errorMessage.contains("--max-pages"))
        let dpi = try await server.call(.POST, "/v1/jobs?dpi=5000", body: book, type: "application/json")
        #expect(dpi.status == 400 && dpi.errorCode == "invalidOption" && dpi.errorMessage.contains("dpi"))
        let theme = try await server.call(.POST, "/v1/jobs?theme=../../etc", body: book, type: "application/json")
        #expect(theme.status == 400 && theme.errorCode == "invalidOption")
    }
}

/// A PNG's signature and header chunk alone: a picture of that size as far as its header tells.
func pngHeader(width: UInt32, height: UInt32) -> Data {
    var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
    d += Data("IHDR".utf8)
    for v in [width, height] { d += Data([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
    d += Data([8, 2, 0, 0, 0, 0, 0, 0, 0])
    return d
}
