import Foundation
import Testing
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import BookTestSupport

/// No request stops the service or makes it answer 5xx for what the client got wrong: hostile
/// bodies, headers, query strings and paths are each answered with a 4xx, and `/healthz` still
/// answers after every one.
@Suite struct ServeFuzzTests {
    @Test func anEnvelopesOptionsOfAnyTypeNeverStopTheService() async throws {
        let server = try SharedServe.server
        for options: Any in [NSNull(), "memoir", 3, true, [1, 2], ["theme": ["nested"]], ["dpi": "high"], ["maxImages": 2.5]] {
            let body = try json(["book": tinyBook(), "options": options])
            let reply = try await server.call(.POST, "/v1/jobs?png=false", body: body, type: "application/json")
            #expect(reply.status == 400 && reply.errorCode == "invalidOption" && reply.errorMessage.contains("$.options"),
                    "\(options): \(reply.status) \(reply.errorMessage)")
            if let id = reply.json["id"] as? String { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
            guard await alive(server) else {
                Issue.record("the service stopped after options \(options)")
                return
            }
        }
    }

    @Test func hostileRequestsAreAnsweredWithoutAServerError() async throws {
        let server = try SharedServe.server
        var random = SplitMix(seed: 0x5EED_B00C)
        for round in 0..<500 {
            let request = FuzzRequest.make(&random, round: round)
            var http = HTTPClientRequest(url: server.base + request.path)
            http.method = request.method
            for (name, value) in request.headers { http.headers.add(name: name, value: value) }
            if let body = request.body { http.body = .bytes(ByteBuffer(bytes: body)) }
            let status: Int
            do {
                let response = try await HTTPClient.shared.execute(http, timeout: .seconds(120))
                status = Int(response.status.code)
                let answer = try await response.body.collect(upTo: 16 * 1024 * 1024)
                if status == 202, let id = (try? JSONSerialization.jsonObject(with: Data(answer.readableBytesView)) as? [String: Any])?["id"] as? String {
                    _ = try await server.call(.DELETE, "/v1/jobs/\(id)")
                }
            } catch {
                // The client refused to send it (a header it will not write): nothing reached the service.
                guard await alive(server) else {
                    Issue.record("round \(round): \(request) ended the service: \(error)")
                    return
                }
                continue
            }
            #expect(status < 500, "round \(round): \(request) answered \(status)")
            guard await alive(server) else {
                Issue.record("round \(round): \(request) ended the service, or left it not answering /healthz")
                return
            }
        }
    }
}

func alive(_ server: ServeProcess) async -> Bool {
    (try? await server.call(.GET, "/healthz", token: .some(nil)).status) == 200
}

/// A JSON value of any kind, containers up to `depth` deep.
func randomJSON(_ random: inout SplitMix, depth: Int) -> Any {
    switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &random) {
    case 0: return NSNull()
    case 1: return Bool.random(using: &random)
    case 2: return [0, -1, 1e300, 2.5, Int.max, 10_000].randomElement(using: &random)!
    case 3: return ["", "memoir", "kdp", "../x", "data:image/png;base64,AAAA", String(repeating: "z", count: 1000)].randomElement(using: &random)!
    case 4: return "\u{0}\u{1F600}\u{FFFF}"
    case 5: return Double.random(in: -1e6...1e6, using: &random)
    case 6: return (0..<Int.random(in: 0...3, using: &random)).map { _ in randomJSON(&random, depth: depth - 1) }
    default:
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            object[["theme", "png", "dpi", "book", "options", "schema", "pages", "k"].randomElement(using: &random)!] = randomJSON(&random, depth: depth - 1)
        }
        return object
    }
}

/// A small, fast generator, so a failing round can be replayed from the seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One hostile request: a method, a path with its query, headers and a body, drawn at random.
struct FuzzRequest: CustomStringConvertible {
    var method: HTTPMethod
    var path: String
    var headers: [(String, String)]
    var body: Data?

    var description: String {
        "\(method.rawValue) \(path.prefix(120)) \(headers.map { "\($0.0): \($0.1.prefix(40))" }) body \(body.map { "\($0.count) bytes: \(String(decoding: $0.prefix(80), as: UTF8.self))" } ?? "none")"
    }

    static func make(_ random: inout SplitMix, round: Int) -> FuzzRequest {
        let methods: [HTTPMethod] = [.GET, .POST, .POST, .POST, .DELETE, .PUT, .PATCH, .OPTIONS]
        let id = String((0..<20).map { _ in "0123456789abcdef".randomElement(using: &random)! })
        let paths = ["/v1/jobs", "/v1/jobs", "/v1/jobs/\(id)", "/v1/jobs/\(id)/pdf", "/v1/jobs/\(id)/report",
                     "/v1/jobs/\(id)/pages/1.png", "/v1/jobs/\(id)/pages/-3.png", "/v1/jobs/\(id)/pages/x", "/v1/jobs/\(id)/events",
                     "/v1/jobs/ZZZ", "/v1/jobs/../../etc/passwd", "/metrics", "/healthz", "/", "/v1", "/v1/jobs/",
                     "/v1/jobs/\(String(repeating: "a", count: 3000))", "/%00", "/v1/jobs/%2e%2e%2f", "/v1/jöbs"]
        let methodIndex = Int.random(in: 0..<methods.count, using: &random)
        let method = methods[methodIndex]
        // Most bodies go where bodies are read.
        var path = method == .POST && Int.random(in: 0..<5, using: &random) > 0 ? "/v1/jobs" : paths.randomElement(using: &random)!
        let queryParts = ["theme=memoir", "theme=nosuch", "theme=../../etc", "profile=kdp", "profile=", "png=maybe", "png=false",
                          "dpi=5000", "dpi=NaN", "dpi=1e999", "dpi=", "maxImages=-1", "maxImages=2.5", "maxImages=1e300", "fillMissing=true",
                          "provider=openai", "provider=evil", "force=true", "strict=1", "bogus=1", "thme=memoir", "=", "&&",
                          "state=done", "state=weird", "limit=0", "limit=99999", "cursor=-1", "cursor=abc", "client=x",
                          "%ff=%fe", "theme=%00", String(repeating: "k", count: 500) + "=v"]
        if Int.random(in: 0..<4, using: &random) == 0 {
            path += "?" + (0..<Int.random(in: 1...4, using: &random)).map { _ in queryParts.randomElement(using: &random)! }.joined(separator: "&")
        }
        var headers: [(String, String)] = []
        switch Int.random(in: 0..<20, using: &random) {
        case 0: break
        case 1: headers.append(("Authorization", "bearer test-token"))
        case 2: headers.append(("Authorization", "Basic dGVzdA=="))
        case 3: headers.append(("Authorization", "Bearer"))
        case 4: headers.append(("Authorization", "Bearer  test-token"))
        default: headers.append(("Authorization", "Bearer test-token"))
        }
        let types = ["application/json", "application/json", "application/json", "application/json", "application/json; charset=utf-8",
                     "application/zip", "text/plain", "application/x-zip-compressed", "application/vnd.api+json",
                     "multipart/form-data; boundary=x", ""]
        let type = types.randomElement(using: &random)!
        if !type.isEmpty { headers.append(("Content-Type", type)) }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: headers.append(("X-Client", String(repeating: "c", count: Int.random(in: 60...300, using: &random))))
        case 1: headers.append(("X-Client", "shop-\(round % 3)"))
        case 2: headers.append(("X-Client", ""))
        default: break
        }
        let body = method == .GET || method == .DELETE ? (Bool.random(using: &random) ? nil : Data("{}".utf8)) : makeBody(&random)
        return FuzzRequest(method: method, path: path, headers: headers, body: body)
    }

    static func makeBody(_ random: inout SplitMix) -> Data? {
        var book = tinyBook()
        let noise = Data((0..<2000).map { _ in UInt8.random(in: 0...255, using: &random) })
        let someValue = randomJSON(&random, depth: 3)
        let otherValue = randomJSON(&random, depth: 2)
        let someKey = ["theme", "png", "dpi", "options", "book", "schema", "pages", "x", ""].randomElement(using: &random)!
        var mangled = tinyBook()
        mangled[["title", "pages", "kind", "schema", "cover", "theme", "tokens"].randomElement(using: &random)!] = otherValue
        book["title"] = book["title"] ?? "Tiny"
        let candidates: [() -> Data?] = [
            { nil },
            { Data() },
            { Data("null".utf8) },
            { Data("[1, 2, 3]".utf8) },
            { Data("\"a string\"".utf8) },
            { Data("{\"book\": null}".utf8) },
            { Data("{\"book\": \"text\", \"options\": {}}".utf8) },
            { Data("{\"options\": {\"theme\": \"memoir\"}}".utf8) },
            { try? json(["book": book, "options": ["theme": NSNull(), "dpi": 1e300]]) },
            { try? json(["book": book, "options": ["png": "yes", "firstPage": 0]]) },
            { try? json(["book": book, "options": ["fillMissing": false, "provider": "openai"]]) },
            { try? json(["book": book, "options": ["profile": "kdp", "firstPage": true]]) },
            { try? json(["book": book, "optoins": [:]]) },
            { try? json(["book": book, "book2": book]) },
            { Data("{\"book\": {\"schema\": 1}, \"book\": {\"schema\": 2}}".utf8) },
            { Data((String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).utf8) },
            { Data((String(repeating: "{\"a\":", count: 3000) + "1" + String(repeating: "}", count: 3000)).utf8) },
            { Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"T\", \"pages\": [".utf8) },
            { Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"\\ud800\", \"pages\": []}".utf8) },
            { Data([0xEF, 0xBB, 0xBF] + Array("{\"schema\": 1, \"kind\": \"storybook\", \"pages\": 7}".utf8)) },
            { Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]) },
            { Data("{\"schema\": 1e999999, \"kind\": \"storybook\", \"pages\": []}".utf8) },
            { Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"T\", \"cover\": {\"photo\": \"data:image/png;base64,!!!\"}, \"pages\": [{\"type\": \"text\", \"text\": \"x\"}]}".utf8) },
            { Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"T\", \"cover\": {\"photo\": \"data:text/html;base64,AAAA\"}, \"pages\": [{\"type\": \"text\", \"text\": \"x\"}]}".utf8) },
            { Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"T\", \"cover\": {\"photo\": \"data:image/png;base64,iVBORw0KGgo=\"}, \"pages\": [{\"type\": \"text\", \"text\": \"x\"}]}".utf8) },
            { Data("{\"schema\": 1, \"kind\": \"storybook\", \"title\": \"T\", \"cover\": {\"photo\": \"data:image/png,raw\"}, \"pages\": []}".utf8) },
            { try? json(tinyBook(text: String(repeating: "long ", count: 60_000))) },
            { try? json(["pageItems": [], "profileID": "x"]) },
            { try? json(["characterManifest": 7, "pages": "no"]) },
            { Data("PK\u{03}\u{04}not really a zip".utf8) },
            { noise },
            { Data("{\"a\": 01}".utf8) },
            { Data("{\"a\": tru}".utf8) },
            { Data("{'a': 1}".utf8) },
            { Data("{\"a\": \"tab\there\"}".utf8) },
            { Data("{\"a\": 1,}".utf8) },
            { Data("{\"a\" 1}".utf8) },
            { Data("{} {}".utf8) },
        ]
        // Half the bodies are made of random values where the service reads typed ones.
        let made: [() -> Data?] = [
            { try? json(["book": book, "options": someValue]) },
            { try? json(["book": book, "options": [someKey: someValue]]) },
            { try? json(["book": someValue, "options": [:]]) },
            { try? json(["book": mangled]) },
            { try? json(mangled) },
            { try? json([someKey: someValue]) },
            { try? json(someValue) },
        ]
        return (Bool.random(using: &random) ? made : candidates).randomElement(using: &random)!()
    }
}
