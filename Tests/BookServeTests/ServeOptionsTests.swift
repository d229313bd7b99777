import Foundation
import Testing
import BookTestSupport

/// A job's options are the API's own: a misspelt or unknown one, a theme or profile the service
/// does not have, is refused by name when the book is sent, and `force` is one of them.
@Suite struct ServeOptionsTests {
    @Test func unknownOptionsAndFieldsAreRefusedByName() async throws {
        let server = try SharedServe.server
        let book = try json(tinyBook())
        let bogus = try await server.call(.POST, "/v1/jobs?bogus=1", body: book, type: "application/json")
        #expect(bogus.status == 400 && bogus.errorCode == "unknownOption" && bogus.errorMessage.contains("bogus"), "\(bogus.status) \(bogus.errorMessage)")
        try expectMatchesOpenAPI(bogus.body, "Error")
        let nearQuery = try await server.call(.POST, "/v1/jobs?thme=memoir", body: book, type: "application/json")
        #expect(nearQuery.status == 400 && nearQuery.errorMessage.contains("thme") && nearQuery.errorMessage.contains("did you mean theme"),
                "\(nearQuery.status) \(nearQuery.errorMessage)")

        let nearOption = try await server.call(.POST, "/v1/jobs", body: try json(["book": tinyBook(), "options": ["thme": "memoir"]]),
                                               type: "application/json")
        #expect(nearOption.status == 400 && nearOption.errorCode == "unknownOption"
                && nearOption.errorMessage.contains("$.options.thme") && nearOption.errorMessage.contains("did you mean theme"),
                "\(nearOption.status) \(nearOption.errorMessage)")
        let nearField = try await server.call(.POST, "/v1/jobs", body: try json(["book": tinyBook(), "optoins": ["theme": "memoir"]]),
                                              type: "application/json")
        #expect(nearField.status == 400 && nearField.errorCode == "unknownField"
                && nearField.errorMessage.contains("$.optoins") && nearField.errorMessage.contains("did you mean options"),
                "\(nearField.status) \(nearField.errorMessage)")
        let wrongType = try await server.call(.POST, "/v1/jobs", body: try json(["book": tinyBook(), "options": ["dpi": "high"]]),
                                              type: "application/json")
        #expect(wrongType.status == 400 && wrongType.errorMessage.contains("$.options.dpi") && wrongType.errorMessage.contains("number"),
                "\(wrongType.status) \(wrongType.errorMessage)")
        // force is an option of the API, as a query parameter and in the envelope.
        let forced = try await server.call(.POST, "/v1/jobs?force=true&png=false", body: book, type: "application/json")
        #expect(forced.status == 202 && (forced.json["options"] as? [String: Any])?["force"] as? Bool == true, "\(forced.status) \(forced.errorMessage)")
        try expectMatchesOpenAPI(forced.body, "JobStatus")
        let wrapped = try await server.call(.POST, "/v1/jobs?png=false", body: try json(["book": tinyBook(), "options": ["force": true]]),
                                            type: "application/json")
        #expect(wrapped.status == 202 && (wrapped.json["options"] as? [String: Any])?["force"] as? Bool == true, "\(wrapped.status) \(wrapped.errorMessage)")
        for reply in [forced, wrapped] {
            if let id = reply.json["id"] as? String { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
        }
    }

    /// `preview` is an option of the API too: a number of pages in the envelope as in the query,
    /// refused with what it may be.
    @Test func aPreviewIsAnOptionInTheEnvelopeAsInTheQuery() async throws {
        let server = try SharedServe.server
        let wrapped = try await server.call(.POST, "/v1/jobs", body: try json(["book": tinyBook(), "options": ["preview": 1]]),
                                            type: "application/json")
        #expect(wrapped.status == 202 && (wrapped.json["options"] as? [String: Any])?["preview"] as? Int == 1, "\(wrapped.status) \(wrapped.errorMessage)")
        try expectMatchesOpenAPI(wrapped.body, "JobStatus")
        if let id = wrapped.json["id"] as? String { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
        for bad in [0, 2.5, 1001] as [Double] {
            let refused = try await server.call(.POST, "/v1/jobs", body: try json(["book": tinyBook(), "options": ["preview": bad]]),
                                                type: "application/json")
            #expect(refused.status == 400 && refused.errorCode == "invalidOption"
                    && refused.errorMessage.contains("$.options.preview: expected a number of pages, from 1 to 1000"), "\(bad): \(refused.status) \(refused.errorMessage)")
        }
        let query = try await server.call(.POST, "/v1/jobs?preview=1001", body: try json(tinyBook()), type: "application/json")
        #expect(query.status == 400 && query.errorMessage.contains("preview=1001: give a number of pages, from 1 to 1000"), "\(query.errorMessage)")
    }

    @Test func themesAndProfilesAreCheckedWhenTheBookIsSent() async throws {
        let server = try SharedServe.server
        let book = try json(tinyBook())
        let theme = try await server.call(.POST, "/v1/jobs?theme=nosuch&png=false", body: book, type: "application/json")
        #expect(theme.status == 400 && theme.errorCode == "invalidOption", "\(theme.status) \(theme.errorMessage)")
        #expect(theme.errorMessage.contains("memoir") && theme.errorMessage.contains("picture-book"), "\(theme.errorMessage)")
        let profile = try await server.call(.POST, "/v1/jobs?profile=kpd&png=false", body: book, type: "application/json")
        #expect(profile.status == 400 && profile.errorMessage.contains("did you mean kdp"), "\(profile.status) \(profile.errorMessage)")
        var own = tinyBook()
        own["theme"] = "nosuch"
        let ownTheme = try await server.call(.POST, "/v1/jobs?png=false", body: try json(own), type: "application/json")
        #expect(ownTheme.status == 400 && ownTheme.errorMessage.contains("$.theme") && ownTheme.errorMessage.contains("memoir"),
                "\(ownTheme.status) \(ownTheme.errorMessage)")
        for reply in [theme, profile, ownTheme] {
            expectNoServerDetail(reply.errorMessage, server)
            for id in [reply.json["id"] as? String].compactMap({ $0 }) { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
        }
    }

    @Test func aFailedPreflightShowsItsFindingsAndForceWritesThePDF() async throws {
        let server = try SharedServe.server
        // One page: every print profile wants more.
        let book = try json(tinyBook(title: "Preflight"))
        let id = try await server.submit(book, type: "application/json", query: "?profile=kdp&png=false")
        let failed = try await server.wait(id)
        let error = try #require(failed["error"] as? [String: Any])
        #expect(failed["state"] as? String == "failed" && error["code"] as? String == "preflightFailed", "\(failed)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("force") && !message.contains("--force"), "\(message)")
        expectNoServerDetail(message, server)
        let report = try await server.call(.GET, "/v1/jobs/\(id)/report")
        #expect(report.status == 200, "\(report.status) \(report.errorMessage)")
        let findings = report.json["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { ($0["message"] as? String ?? "").contains("kdp prints at least") }, "\(report.json)")
        expectNoServerDetail(String(decoding: report.body, as: UTF8.self), server)

        let forced = try await server.submit(book, type: "application/json", query: "?profile=kdp&png=false&force=true")
        #expect(try await server.wait(forced)["state"] as? String == "done")
        let envelope = try json(["book": tinyBook(title: "Preflight"), "options": ["profile": "kdp", "png": false, "force": true]])
        let accepted = try await server.call(.POST, "/v1/jobs", body: envelope, type: "application/json")
        #expect(accepted.status == 202 && (accepted.json["options"] as? [String: Any])?["force"] as? Bool == true, "\(accepted.errorMessage)")
        try expectMatchesOpenAPI(accepted.body, "JobStatus")
        let done = try await server.wait(try #require(accepted.json["id"] as? String))
        #expect(done["state"] as? String == "done", "\(done)")
        for job in [id, forced] { _ = try await server.call(.DELETE, "/v1/jobs/\(job)") }
    }

    @Test func errorsNameNoServerPathAndGiveNoCommandLineAdvice() async throws {
        let server = try SharedServe.server
        var replies: [String] = []
        // A book the loader refuses, a picture over the limit, a job that fails on a missing picture.
        let bad = try await server.call(.POST, "/v1/jobs", body: Data(#"{"schema": 1, "kind": "storybook", "pages": 7}"#.utf8), type: "application/json")
        #expect(bad.status == 400 && bad.errorMessage.contains("$.pages"), "\(bad.errorMessage)")
        replies.append(bad.errorMessage)
        var missing = tinyBook(title: "Missing")
        missing["pages"] = [["type": "illustration", "text": "x", "image": "images/missing.png"]]
        let strict = try await server.submit(try json(missing), type: "application/json", query: "?strict=true&png=false")
        let failed = try await server.wait(strict)
        #expect(failed["state"] as? String == "failed", "\(failed)")
        replies.append((failed["error"] as? [String: Any])?["message"] as? String ?? "")
        replies.append(try await server.call(.GET, "/v1/jobs/\(strict)/pdf").errorMessage)
        replies.append(String(decoding: try await server.call(.GET, "/v1/jobs/\(strict)/report").body, as: UTF8.self))
        replies.append(String(decoding: try await server.call(.GET, "/v1/jobs?client=default&state=failed").body, as: UTF8.self))
        // The API's own paths are named as they are.
        let unknown = try await server.call(.GET, "/v1/jobs/0123456789abcdef0124")
        #expect(unknown.status == 404 && unknown.errorMessage.contains("POST /v1/jobs"), "\(unknown.errorMessage)")
        for text in replies { expectNoServerDetail(text, server) }
        _ = try await server.call(.DELETE, "/v1/jobs/\(strict)")
    }
}

/// What an answer must not hold: a path of the server's disk, or advice for the command line.
func expectNoServerDetail(_ text: String, _ server: ServeProcess, sourceLocation: SourceLocation = #_sourceLocation) {
    for detail in [server.data.path, Repository.root.path, "/tmp/", "bookrender export", "pass --", "--force", "--strict", "--profile"] {
        #expect(!text.contains(detail), "“\(detail)” in: \(text.prefix(2000))", sourceLocation: sourceLocation)
    }
}
