import Foundation
import Testing
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import BookTestSupport

/// A `bookrender serve` process on a free loopback port, for one test: start, call, stop or kill.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let data: URL
    let log: URL
    let port: Int
    let token: String?
    var base: String { "http://127.0.0.1:\(port)" }

    init(data: URL, token: String? = "test-token", arguments: [String] = [], environment: [String: String] = [:]) throws {
        self.data = data
        self.token = token
        log = data.deletingLastPathComponent().appendingPathComponent("\(data.lastPathComponent)-serve-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = try Repository.binary
        process.arguments = ["serve", "--data", data.path, "--port", "0"] + (token == nil ? ["--no-auth"] : []) + arguments
        var env = ProcessInfo.processInfo.environment
        env["BOOKRENDER_SERVE_TOKEN"] = token
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let r = text.range(of: #"listening on http://127\.0\.0\.1:\d+"#, options: .regularExpression) {
                found = Int(text[r].split(separator: ":").last!)
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ToolError("bookrender serve did not say where it listens: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, and the exit status once it has stopped. A service still running after its
    /// shutdown grace and a margin is killed, and the test fails saying so.
    @discardableResult
    func stop() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        do {
            try process.waitForExit(within: 120, "bookrender serve after SIGTERM")
        } catch {
            Issue.record("\(error)\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        return process.terminationStatus
    }

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    }

    /// `headers` are sent as given, after the others (a test's own `Authorization` with `token: .some(nil)`).
    /// A `stream` body is sent in chunks without a length, as a client that does not know it sends.
    func call(_ method: HTTPMethod, _ path: String, body: Data? = nil, type: String? = nil,
              token: String?? = .none, client: String? = nil, headers: [(String, String)] = [],
              stream: Bool = false) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        let bearer: String? = token ?? self.token
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let type { request.headers.add(name: "Content-Type", value: type) }
        if let client { request.headers.add(name: "X-Client", value: client) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            if stream {
                let chunks = stride(from: 0, to: body.count, by: 64 * 1024).map { ByteBuffer(bytes: body[$0..<min($0 + 64 * 1024, body.count)]) }
                let sequence = AsyncStream<ByteBuffer> { continuation in
                    for chunk in chunks { continuation.yield(chunk) }
                    continuation.finish()
                }
                request.body = .stream(sequence, length: .unknown)
            } else {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(300))
        let bytes = try await response.body.collect(upTo: 512 * 1024 * 1024)
        var headers: [String: String] = [:]
        for h in response.headers { headers[h.name.lowercased()] = h.value }
        return Reply(status: Int(response.status.code), headers: headers, body: Data(bytes.readableBytesView))
    }

    func submit(_ body: Data, type: String, query: String = "") async throws -> String {
        let reply = try await call(.POST, "/v1/jobs" + query, body: body, type: type)
        guard reply.status == 202, let id = reply.json["id"] as? String else {
            throw ToolError("submit answered \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return id
    }

    struct Event: Sendable {
        var name: String
        var data: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var text: String
    }

    /// Reads the job's event stream until the server closes it.
    func events(_ id: String) async throws -> [Event] {
        var request = HTTPClientRequest(url: base + "/v1/jobs/\(id)/events")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        guard response.status == .ok else { throw ToolError("events answered \(response.status)") }
        var text = ""
        for try await chunk in response.body { text += String(decoding: chunk.readableBytesView, as: UTF8.self) }
        return text.components(separatedBy: "\n\n").compactMap { block in
            var name = "", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            return name.isEmpty ? nil : Event(name: name, text: data)
        }
    }

    /// Polls the job until it is finished.
    func wait(_ id: String, timeout: Double = 600) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let status = try await call(.GET, "/v1/jobs/\(id)").json
            if let s = status["state"] as? String, ["done", "failed", "cancelled"].contains(s) { return status }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        throw ToolError("job \(id) did not finish")
    }
}

/// Zips made with Python's zipfile, which can write what `zip` refuses to (escaping names, links).
enum TestZip {
    /// entries: name → content; links: name → target.
    static func make(_ entries: [(String, Data)], links: [(String, String)] = [], at url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var spec: [[String: String]] = []
        for (i, (name, data)) in entries.enumerated() {
            let f = folder.appendingPathComponent("entry-\(i)")
            try data.write(to: f)
            spec.append(["name": name, "file": f.path])
        }
        for (name, target) in links { spec.append(["name": name, "link": target]) }
        let specURL = folder.appendingPathComponent("zip-spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specURL)
        let script = """
        import json, sys, zipfile
        spec = json.load(open(sys.argv[1]))
        with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
            for e in spec:
                if "link" in e:
                    info = zipfile.ZipInfo(e["name"])
                    info.create_system = 3
                    info.external_attr = (0o120777 << 16)
                    z.writestr(info, e["link"])
                else:
                    # ZipInfo keeps a name as given (z.write would drop a leading /).
                    info = zipfile.ZipInfo(e["name"])
                    info.compress_type = zipfile.ZIP_DEFLATED
                    z.writestr(info, open(e["file"], "rb").read())
        """
        let r = try run("python3", ["-c", script, specURL.path, url.path])
        guard r.status == 0 else { throw ToolError("python3 zipfile failed: \(r.stderr)") }
    }

    /// A book folder zipped with paths relative to it.
    static func folder(_ folder: URL, at url: URL) throws {
        let base = folder.standardizedFileURL.path
        var entries: [(String, Data)] = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = file.standardizedFileURL.path
            entries.append((String(path.dropFirst(base.count + 1)), try Data(contentsOf: file)))
        }
        try make(entries.sorted { $0.0 < $1.0 }, at: url)
    }
}
