import Foundation
import Testing
import BookBase
import BookModel
import BookResolve
@testable import BookIllustrate
import BookHTTP
import BookTestSupport

/// Each provider's requests, as the loopback server received them.
@Suite struct ProviderWireTests {
    let heroHash = SHA256.hex(TestImages.tinyPNG(200))

    func fill(_ provider: ProviderName, control: [String: Any] = [:], pages: Int = 3) async throws
        -> (requests: [ProviderServer.Request], book: Book, summary: IllustrateSummary) {
        let server = try ProviderServer(control.merging(["key": testKey]) { a, _ in a })
        let dir = try temporaryDirectory("wire-\(provider.rawValue)")
        let url = try makeBook(pages: pages, in: dir)
        let summary = try await Illustrator.run(bookAt: url, options: options(provider, server: server, cache: dir.appendingPathComponent("cache")))
        return (try server.requests(), try loadBook(url), summary)
    }

    /// The character's picture goes with every call, the first page's with every later page,
    /// and the guide is in every prompt.
    func checkConsistency(_ requests: [ProviderServer.Request]) throws {
        #expect(requests.count == 4)   // cover + 3 pages
        var firstPageImage: String?
        for r in requests {
            #expect(r.imageHashes.first == heroHash, "no character reference on \(marker(r.prompt))")
            #expect(r.prompt.contains("CHARACTER CONSISTENCY GUIDE - Use these EXACT descriptions for secondary characters:"))
            #expect(r.prompt.contains("[FARMER JEREMY]"))
            #expect(r.prompt.contains("NO TEXT"))
            if marker(r.prompt) == "01" { firstPageImage = r.imageHashes.count == 1 ? "" : nil }
        }
        #expect(firstPageImage != nil)
        for r in requests where ["02", "03"].contains(marker(r.prompt)) {
            #expect(r.imageHashes.count == 2, "page \(marker(r.prompt)) has no style reference")
            #expect(r.prompt.contains("STYLE REFERENCE"))
        }
    }

    @Test func openAIEditsMultipart() async throws {
        let (requests, book, summary) = try await fill(.openai)
        #expect(summary.failures.isEmpty)
        try checkConsistency(requests)
        for r in requests {
            #expect(r.path == "/v1/images/edits")
            #expect(r.headers["authorization"] == "Bearer \(testKey)")
            #expect(r.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=") == true)
            #expect(r.fields["model"] == "gpt-image-1")
            #expect(r.fields["size"] == "1024x1536")
            #expect(r.fields["quality"] == "low")
            #expect(r.fields["input_fidelity"] == "high")
            #expect(r.images.allSatisfy { $0["name"] == "image[]" && $0["mime"] == "image/png" })
        }
        #expect(book.pages.allSatisfy { $0.picture?.image != nil })
        #expect(book.cover?.photo != nil)
    }

    /// Each model gets exactly the fields it takes: the server answers an unknown one with a 400.
    @Test(arguments: [("gpt-image-1", true), ("gpt-image-1.5", true), ("gpt-image-1-mini", false), ("gpt-image-9-unlisted", false)])
    func openAIFieldsFollowTheModel(_ model: String, _ fidelity: Bool) async throws {
        let server = try ProviderServer(["key": testKey])
        let dir = try temporaryDirectory("wire-model")
        let url = try makeBook(pages: 1, in: dir)
        var opts = options(.openai, server: server, cache: dir.appendingPathComponent("cache"))
        opts.provider.model = model
        let summary = try await Illustrator.run(bookAt: url, options: opts)
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        let requests = try server.requests()
        #expect(!requests.isEmpty)
        var expected: Set<String> = ["model", "prompt", "n", "size", "quality", "output_format"]
        if fidelity { expected.insert("input_fidelity") }
        for r in requests {
            #expect(r.path == "/v1/images/edits")
            #expect(Set(r.fields.keys) == expected, "\(model): \(r.fields.keys.sorted())")
            #expect(r.fields["model"] == model)
        }
    }

    @Test func aFieldTheModelDoesNotTakeIsRejectedByTheServer() async throws {
        let server = try ProviderServer(["key": testKey])
        var request = HTTPRequest(url: try #require(URL(string: server.baseURL + "/v1/images/edits")))
        var form = Multipart()
        form.field("model", "gpt-image-1-mini")
        form.field("prompt", "a lighthouse")
        form.field("input_fidelity", "high")
        form.file("image[]", filename: "r.png", contentType: "image/png", data: TestImages.tinyPNG(3))
        request.httpMethod = "POST"
        request.httpBody = form.finished()
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(testKey)", forHTTPHeaderField: "Authorization")
        let response = try await HTTPClient(timeout: 10).send(request)
        #expect(response.status == 400)
        #expect(ProviderErrorBody(response.body).message == "Unknown parameter: 'input_fidelity'.")
    }

    @Test func openAIGenerationsWithoutReferences() async throws {
        let server = try ProviderServer(["key": testKey])
        let dir = try temporaryDirectory("wire-gen")
        let url = try makeBook(pages: 1, in: dir)
        var book = try loadBook(url)
        book.characters = nil
        book.cover?.photo = .path("images/hero.png")
        try BookExporter.encode(book).write(to: url)
        _ = try await Illustrator.run(bookAt: url, options: options(.openai, server: server, cache: dir.appendingPathComponent("cache")))
        let r = try #require(try server.requests().first)
        #expect(r.path == "/v1/images/generations")
        #expect(r.headers["content-type"] == "application/json")
        #expect(r.fields["model"] == "gpt-image-1")
        #expect(r.fields["size"] == "1024x1536")
        #expect(r.fields["response_format"] == nil)
    }

    @Test func geminiGenerateContent() async throws {
        let (requests, book, summary) = try await fill(.gemini)
        #expect(summary.failures.isEmpty)
        try checkConsistency(requests)
        for r in requests {
            #expect(r.path == "/v1beta/models/gemini-2.5-flash-image:generateContent")
            #expect(r.headers["x-goog-api-key"] == testKey)
            #expect(r.headers["authorization"] == nil)
            #expect(r.fields["generationConfig"] == #"{"imageConfig":{"aspectRatio":"3:4"},"responseModalities":["TEXT","IMAGE"]}"#)
            #expect(r.imageTypes.allSatisfy { $0 == "image/png" })
        }
        #expect(book.pages.allSatisfy { $0.picture?.image != nil })
    }

    @Test func geminiSnakeCaseResponse() async throws {
        let (_, book, summary) = try await fill(.gemini, control: ["gemini_case": "snake"], pages: 1)
        #expect(summary.failures.isEmpty)
        #expect(book.pages[0].picture?.image != nil)
    }

    @Test func openRouterChatCompletions() async throws {
        let (requests, book, summary) = try await fill(.openrouter)
        #expect(summary.failures.isEmpty)
        try checkConsistency(requests)
        for r in requests {
            #expect(r.path == "/v1/chat/completions")
            #expect(r.headers["authorization"] == "Bearer \(testKey)")
            #expect(r.fields["model"] == "google/gemini-2.5-flash-image")
            #expect(r.fields["modalities"] == #"["image","text"]"#)
            #expect(r.fields["image_config"] == #"{"aspect_ratio":"3:4"}"#)
            #expect(r.imageTypes.allSatisfy { $0 == "image/png" })
        }
        #expect(book.pages.allSatisfy { $0.picture?.image != nil })
    }

    /// A book with only a photo of the child: the character is drawn first, from the photo, and kept.
    @Test func characterMadeFirstFromThePhotoAndStored() async throws {
        let server = try ProviderServer(["key": testKey])
        let dir = try temporaryDirectory("wire-character")
        let url = try makeBook(pages: 2, in: dir, coverPhoto: true, characterImage: false)
        var book = try loadBook(url)
        book.cover?.photo = .path("images/child.png")
        try BookExporter.encode(book).write(to: url)
        _ = try await Illustrator.run(bookAt: url, options: options(.gemini, server: server, cache: dir.appendingPathComponent("cache")))
        let requests = try server.requests()
        #expect(requests.map { marker($0.prompt) } == ["character", "01", "02"])
        #expect(requests[0].prompt.hasPrefix("Create a VERTICAL PORTRAIT-ORIENTED colorful cartoon illustration of this child named Tam"))
        #expect(requests[0].imageHashes == [SHA256.hex(TestImages.tinyPNG(90))])
        let after = try loadBook(url)
        guard case .path(let character)? = after.characters?.main?.image else { Issue.record("character not stored"); return }
        let characterHash = SHA256.hex(try Data(contentsOf: dir.appendingPathComponent(character)))
        #expect(requests[1].imageHashes.first == characterHash)
        #expect(requests[2].imageHashes.first == characterHash)
    }
}
