import Foundation
import Testing
@testable import BookIllustrate
import BookTestSupport

/// What each provider's error answer is taken for: a refusal of the picture, a key or account
/// problem, or a wrong request. Each answer comes from the loopback server, in the provider's shape.
@Suite struct FailureKindTests {
    struct Case: Sendable, CustomStringConvertible {
        var provider: ProviderName
        var name: String
        var response: String   // JSON-encoded server response
        var kind: ProviderFailure.Kind
        var reason: String
        var description: String { "\(provider.rawValue) \(name)" }
    }

    static let cases: [Case] = [
        Case(provider: .openai, name: "moderation_blocked",
             response: #"{"status":400,"json":{"error":{"message":"Your request was rejected by the safety system.","type":"image_generation_user_error","code":"moderation_blocked"}}}"#,
             kind: .refused, reason: "openai HTTP 400: moderation_blocked"),
        Case(provider: .openai, name: "content_policy_violation",
             response: #"{"status":400,"json":{"error":{"message":"Your request was rejected as a result of our safety system.","type":"invalid_request_error","code":"content_policy_violation"}}}"#,
             kind: .refused, reason: "openai HTTP 400: content_policy_violation"),
        Case(provider: .openai, name: "invalid_value",
             response: #"{"status":400,"json":{"error":{"message":"Invalid size.","type":"invalid_request_error","code":"invalid_value"}}}"#,
             kind: .invalid, reason: "openai HTTP 400: invalid_value"),
        Case(provider: .openrouter, name: "403 moderation",
             response: #"{"status":403,"json":{"error":{"code":403,"message":"Input was flagged","metadata":{"reasons":["violence"],"flagged_input":"…"}}}}"#,
             kind: .refused, reason: "openrouter moderation: 403, violence"),
        Case(provider: .openrouter, name: "403 guardrail",
             response: #"{"status":403,"json":{"error":{"code":403,"message":"Request blocked by guardrail: model not in allowlist"}}}"#,
             kind: .invalid, reason: "openrouter guardrail: 403: Request blocked by guardrail"),
        Case(provider: .openrouter, name: "403 budget",
             response: #"{"status":403,"json":{"error":{"code":403,"message":"Budget limit exceeded","metadata":{"limit_source":"openrouter_key_limit"}}}}"#,
             kind: .noCredit, reason: "openrouter budget limit (openrouter_key_limit)"),
        Case(provider: .openrouter, name: "403 permission",
             response: #"{"status":403,"json":{"error":{"code":403,"message":"This API key does not have permission to use this endpoint"}}}"#,
             kind: .badKey, reason: "openrouter permission denied: 403: This API key"),
    ]

    func failure(_ provider: ProviderName, answering response: Any) async throws -> ProviderFailure? {
        let server = try ProviderServer(["key": testKey, "rules": [["contains": "SCENE-01", "responses": [response]]]])
        let provider = ProviderSettings(name: provider, baseURL: server.baseURL, apiKey: testKey, timeout: 10).makeProvider()
        let job = IllustrationJob(kind: .page, key: "p01", pageIndex: 0, scene: "SCENE-01", aspect: AspectRatio(width: 3, height: 4), label: "page 1 of 1")
        let request = GenerationRequest(job: job, prompt: "SCENE (page 1 of 1): SCENE-01", references: [], resolution: .preview)
        return await #expect(throws: ProviderFailure.self) { _ = try await provider.generate(request) }
    }

    @Test(arguments: cases)
    func theAnswerIsTakenForWhatItSays(_ c: Case) async throws {
        let failure = try await failure(c.provider, answering: try JSONSerialization.jsonObject(with: Data(c.response.utf8)))
        #expect(failure?.kind == c.kind, "\(failure?.reason ?? "")")
        #expect(failure?.reason.hasPrefix(c.reason) == true, "\(failure?.reason ?? "")")
    }

    /// A 200 carrying the provider's error object instead of a picture: the same for every
    /// provider, its message kept, a server error retried, anything else the picture's failure.
    @Test(arguments: [ProviderName.openai, .gemini, .openrouter].flatMap { p in [(p, "server_error"), (p, "invalid_request_error")] })
    func anErrorInA200IsTakenAlikeByEveryProvider(_ provider: ProviderName, _ type: String) async throws {
        let message = "The engine could not finish ERR-\(type)"
        let failure = try await failure(provider, answering: ["status": 200, "json": ["error": ["message": message, "type": type]]])
        #expect(failure?.kind == (type == "server_error" ? .retryable : .invalid), "\(failure?.kind.rawValue ?? ""): \(failure?.reason ?? "")")
        #expect(failure?.reason == "\(provider.rawValue) answered 200 with an error: \(type): \(message)", "\(failure?.reason ?? "")")
    }
}
