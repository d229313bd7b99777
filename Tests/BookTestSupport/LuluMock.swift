import Foundation

/// Tests/LuluPrintServer/lulu-print-api.py, the loopback stand-in for Lulu's Print API written
/// from its published documentation, for one test: start, script, read what it was sent, stop.
public final class LuluMock: @unchecked Sendable {
    public let process = Process()
    public let port: Int
    public let folder: URL
    public let key: String
    public let secret: String
    /// Files Lulu downloads in a test of the command line: served at `/files/NAME`.
    public var files: URL { folder.appendingPathComponent("files") }
    public var log: URL { folder.appendingPathComponent("requests.jsonl") }
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Keys that look like Lulu's (UUIDs), so a test can look for any piece of them in what bookrender wrote.
    public init(key: String = "5ec56f60-3df5-484a-86a4-9e1c2f7b3d01", secret: String = "b1050b59-61e6-4053-9731-4c8d5e6f7a92") throws {
        self.key = key
        self.secret = secret
        folder = try temporaryDirectory("lulu-mock")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Repository.root.appendingPathComponent("Tests/LuluPrintServer/lulu-print-api.py").path,
                             "--key", key, "--secret", secret, "--log", folder.appendingPathComponent("requests.jsonl").path,
                             "--files", folder.appendingPathComponent("files").path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw ToolError("lulu-print-api.py did not print its port: \(text)")
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child of a test process inherits its blocked signal mask and may never see SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment a `bookrender` child needs to order from this server.
    public var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LULU_CLIENT_KEY"] = key
        env["LULU_CLIENT_SECRET"] = secret
        env["BOOKRENDER_ORDER_POLL"] = "0.02"
        env["BOOKRENDER_RETRY_BASE"] = "0.01"
        return env
    }

    @discardableResult
    func post(_ path: String, _ body: [String: Any]) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: body)
        let r = try run("curl", ["-sS", "-X", "POST", "--data-binary", String(decoding: data, as: UTF8.self), baseURL + path])
        guard r.status == 0, let o = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any] else {
            throw ToolError("the Lulu stand-in did not answer \(path): \(r.stderr)")
        }
        return o
    }

    /// Replaces the script: `fail` ([{method, path (a regex), status, times, after, echo}]),
    /// `expire_after_uses`, `token_lifetime`, `interior_errors`, `cover_errors`,
    /// `cover_width_offset_pt`, `validation_polls`.
    public func script(_ control: [String: Any]) throws { try post("/__mock__/control", control) }

    /// Its print jobs, the files it downloaded ({url, kind, status}) and its validations.
    /// Print jobs someone else placed, with these references.
    public func seed(externalIDs: [String]) throws { _ = try post("/__mock__/seed", ["external_ids": externalIDs]) }

    public func state() throws -> [String: Any] { try post("/__mock__/state", [:]) }

    public func printJobs() throws -> [[String: Any]] { try state()["jobs"] as? [[String: Any]] ?? [] }

    public func fetches() throws -> [[String: Any]] { try state()["fetches"] as? [[String: Any]] ?? [] }

    /// Downloads `url` as Lulu would: its HTTP status (and page count when it is a PDF).
    public func fetch(_ url: String) throws -> Int { try post("/__mock__/fetch", ["url": url])["status"] as? Int ?? -1 }

    /// Moves print job `id` to `status`, and sends the webhook to `webhook`, signed with the API
    /// secret (or with another, `goodSignature: false`); the webhook's HTTP status.
    @discardableResult
    public func advance(_ id: Int, to status: String, webhook: String? = nil, goodSignature: Bool = true) throws -> Int? {
        var body: [String: Any] = ["id": id, "status": status, "signature": goodSignature ? "good" : "bad"]
        if let webhook { body["webhook"] = webhook }
        return try post("/__mock__/advance", body)["webhookStatus"] as? Int
    }

    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: [String: [String]]
        public var headers: [String: String]
        public var body: String
        public var status: Int
    }

    /// The API requests it was sent, in order.
    public func requests() throws -> [Request] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(method: o["method"] as? String ?? "", path: o["path"] as? String ?? "",
                           query: o["query"] as? [String: [String]] ?? [:], headers: o["headers"] as? [String: String] ?? [:],
                           body: o["body"] as? String ?? "", status: o["status"] as? Int ?? 0)
        }
    }
}

extension LuluMock {
    /// The access tokens it gave out.
    public func tokens() throws -> [String] { try state()["tokens"] as? [String] ?? [] }
}
