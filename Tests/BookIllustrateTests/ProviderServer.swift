import Foundation
import BookTestSupport

/// The loopback provider server (bench/illustrate-provider-server.py) for one test: start, script, read its log, stop.
final class ProviderServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    let folder: URL
    var control: URL { folder.appendingPathComponent("control.json") }
    var log: URL { folder.appendingPathComponent("requests.jsonl") }
    let scheme: String
    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    struct Request: Sendable {
        var provider: String
        var path: String
        var headers: [String: String]
        var prompt: String
        var images: [[String: String]]
        var fields: [String: String]
        var arrival: Double
        var finish: Double
        var inflight: Int
        var status: Int
        var imageHashes: [String] { images.compactMap { $0["sha256"] } }
        var imageTypes: [String] { images.compactMap { $0["mime"] } }
    }

    /// `selfSignedTLS`: https, with a certificate made for the test that nothing trusts.
    init(_ control: [String: Any] = [:], selfSignedTLS: Bool = false) throws {
        folder = try temporaryDirectory("provider-server")
        try JSONSerialization.data(withJSONObject: control).write(to: folder.appendingPathComponent("control.json"))
        FileManager.default.createFile(atPath: folder.appendingPathComponent("requests.jsonl").path, contents: nil)
        var arguments: [String] = []
        if selfSignedTLS {
            let cert = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
            try TestImages.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                                           "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert], in: folder)
            arguments = ["--tls", "\(cert),\(key)"]
        }
        port = try LoopbackProviderProcess.start(process, control: folder.appendingPathComponent("control.json"),
                                                 log: folder.appendingPathComponent("requests.jsonl"), arguments: arguments)
        scheme = selfSignedTLS ? "https" : "http"
    }

    func script(_ control: [String: Any]) throws {
        try JSONSerialization.data(withJSONObject: control).write(to: self.control, options: .atomic)
    }

    func requests() throws -> [Request] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            let fields = (o["fields"] as? [String: Any] ?? [:]).mapValues { v -> String in
                if let s = v as? String { return s }
                let d = (try? JSONSerialization.data(withJSONObject: v, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
                return String(decoding: d, as: UTF8.self)
            }
            return Request(provider: o["provider"] as? String ?? "", path: o["path"] as? String ?? "",
                           headers: o["headers"] as? [String: String] ?? [:], prompt: o["prompt"] as? String ?? "",
                           images: (o["images"] as? [[String: Any]] ?? []).map { $0.compactMapValues { "\($0)" } },
                           fields: fields, arrival: o["arrival"] as? Double ?? 0, finish: o["finish"] as? Double ?? 0,
                           inflight: o["inflight"] as? Int ?? 0, status: o["status"] as? Int ?? 0)
        }.sorted { $0.arrival < $1.arrival }
    }

    deinit {
        // SIGKILL: a child of a test process inherits its blocked signal mask and may never see SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }
}
