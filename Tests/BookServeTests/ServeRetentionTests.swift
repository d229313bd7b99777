import Foundation
import Testing
import BookTestSupport

/// The data folder does not grow without bound: jobs can be listed and removed, and the service
/// removes finished jobs past `--keep` or past `--max-data-bytes`, oldest first.
@Suite struct ServeRetentionTests {
    @Test func jobsAreListedAPageAtATimeAndADeletedJobLeavesNothing() async throws {
        let server = try SharedServe.server
        let client = "lister-\(UUID().uuidString.prefix(8))"
        var ids: [String] = []
        for i in 0..<3 {
            let reply = try await server.call(.POST, "/v1/jobs?png=false", body: try json(tinyBook(title: "List \(i)")),
                                              type: "application/json", client: client)
            ids.append(try #require(reply.json["id"] as? String, "\(reply.status) \(reply.errorMessage)"))
        }
        for id in ids { #expect(try await server.wait(id)["state"] as? String == "done") }

        let first = try await server.call(.GET, "/v1/jobs?client=\(client)&limit=2")
        #expect(first.status == 200, "\(first.status) \(first.errorMessage)")
        try expectMatchesOpenAPI(first.body, "JobList")
        let firstIDs = (first.json["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(firstIDs == [ids[2], ids[1]], "newest first: \(firstIDs)")
        let cursor = try #require(first.json["next"] as? String)
        let second = try await server.call(.GET, "/v1/jobs?client=\(client)&limit=2&cursor=\(cursor)")
        #expect((second.json["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == [ids[0]])
        #expect(second.json["next"] == nil)
        let done = try await server.call(.GET, "/v1/jobs?client=\(client)&state=done")
        #expect((done.json["jobs"] as? [[String: Any]])?.count == 3)
        let queued = try await server.call(.GET, "/v1/jobs?client=\(client)&state=queued")
        #expect((queued.json["jobs"] as? [[String: Any]])?.isEmpty == true)
        let bad = try await server.call(.GET, "/v1/jobs?state=finished")
        #expect(bad.status == 400 && bad.errorMessage.contains("done"), "\(bad.errorMessage)")

        let folder = server.data.appendingPathComponent("jobs/\(ids[0])")
        #expect(FileManager.default.fileExists(atPath: folder.path))
        let deleted = try await server.call(.DELETE, "/v1/jobs/\(ids[0])")
        #expect(deleted.status == 204, "\(deleted.status) \(deleted.errorMessage)")
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the deleted job's folder is still there")
        #expect(try await server.call(.GET, "/v1/jobs/\(ids[0])").status == 404)
        let left = try await server.call(.GET, "/v1/jobs?client=\(client)")
        #expect((left.json["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == [ids[2], ids[1]])
        for id in ids.dropFirst() { _ = try await server.call(.DELETE, "/v1/jobs/\(id)") }
    }

    @Test func finishedJobsPastTheDataLimitGoOldestFirst() async throws {
        // What one finished job takes, measured on a job like those below.
        let shared = try SharedServe.server
        let probe = try await shared.submit(try json(tinyBook(title: "Kept")), type: "application/json", query: "?png=false")
        _ = try await shared.wait(probe)
        let one = folderBytes(shared.data.appendingPathComponent("jobs/\(probe)"))
        _ = try await shared.call(.DELETE, "/v1/jobs/\(probe)")
        #expect(one > 0)

        let dir = try temporaryDirectory("serve-retention")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Room for two such jobs, not three.
        let server = try ServeProcess(data: dir.appendingPathComponent("data"), arguments: ["--max-data-bytes", "\(one * 5 / 2)"])
        defer { _ = server.stop() }
        var ids: [String] = []
        for _ in 0..<4 {
            let id = try await server.submit(try json(tinyBook(title: "Kept")), type: "application/json", query: "?png=false")
            #expect(try await server.wait(id)["state"] as? String == "done")
            ids.append(id)
        }
        // The last job's removals follow its end.
        var listed: [String] = []
        let deadline = Date().addingTimeInterval(60)
        repeat {
            listed = (try await server.call(.GET, "/v1/jobs").json["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            if listed.count > 2 { try await Task.sleep(nanoseconds: 100_000_000) }
        } while listed.count > 2 && Date() < deadline
        #expect(listed == [ids[3], ids[2]], "the two newest are kept: \(listed) of \(ids)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: server.data.appendingPathComponent("jobs").path).sorted()
        #expect(folders == [ids[2], ids[3]].sorted(), "\(folders)")
    }

    @Test func finishedJobsPastTheirAgeGo() async throws {
        let dir = try temporaryDirectory("serve-keep")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(data: dir.appendingPathComponent("data"), arguments: ["--keep", "1s"])
        defer { _ = server.stop() }
        let id = try await server.submit(try json(tinyBook()), type: "application/json", query: "?png=false")
        // Rendered, then removed on one of the service's sweeps a second later, with nothing asked of it.
        let deadline = Date().addingTimeInterval(120)
        while try await server.call(.GET, "/v1/jobs/\(id)").status != 404, Date() < deadline {
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        #expect(try await server.call(.GET, "/v1/jobs/\(id)").status == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.data.appendingPathComponent("jobs").path).isEmpty)
    }
}

/// Bytes the files under a folder take on disk, as the service counts them.
func folderBytes(_ folder: URL) -> Int {
    let keys: [URLResourceKey] = [.totalFileAllocatedSizeKey, .isRegularFileKey]
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { return 0 }
    var total = 0
    for case let file as URL in walker {
        guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
        total += values.totalFileAllocatedSize ?? 0
    }
    return total
}
