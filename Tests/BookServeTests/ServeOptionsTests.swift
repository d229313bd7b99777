import Foundation
import Testing
import BookTestSupport

/// A job's options are the API's own: a misspelt or unknown one is refused by name when the book is
/// sent, and `force` is one of them.
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
}
