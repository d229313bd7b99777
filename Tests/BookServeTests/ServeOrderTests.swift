import Foundation
import Testing
import BookTestSupport

/// A finished job ordered from the loopback Lulu through the service: its cover rendered, its
/// files fetched by the printer through signed, expiring addresses (and refused for another job,
/// tampered or expired), the print job placed once, its status in the job's status and events,
/// and Lulu's webhooks taken only with Lulu's signature.
@Suite(.serialized) struct ServeOrderTests {
    static let shipTo: [String: String] = ["name": "Ada Whitlow", "street1": "101 Independence Ave SE", "city": "Washington", "state_code": "DC",
                                        "postcode": "20540", "country_code": "US", "phone_number": "+1 206 555 0100", "email": "ada@example.com"]

    /// A port free now, for a service that must know its own address before it starts.
    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ToolError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func order(_ server: ServeProcess, _ id: String, _ body: [String: Any]) async throws -> ServeProcess.Reply {
        try await server.call(.POST, "/v1/jobs/\(id)/order", body: try JSONSerialization.data(withJSONObject: body), type: "application/json")
    }

    @Test func aFinishedJobIsOrderedFetchedThroughSignedAddressesAndFollowedByWebhooks() async throws {
        let dir = try temporaryDirectory("serve-order")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mock = try LuluMock()
        let port = try freePort()
        // Long enough for the steps below on a machine busy with other tests (the files are
        // fetched again after the order is placed); the test waits it out before the expired
        // fetch, asleep, so it costs no work.
        let lifetime = 90.0
        let arguments = ["--port", "\(port)", "--public-url", "http://127.0.0.1:\(port)", "--lulu-base-url", mock.baseURL,
                         "--order-url-lifetime", "\(Int(lifetime))"]
        var server = try ServeProcess(data: dir.appendingPathComponent("data"), arguments: arguments, environment: mock.environment)
        defer { _ = server.stop() }
        var logs: [URL] = [server.log]

        let zip = dir.appendingPathComponent("zip/storybook.zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try TestZip.folder(try PrintableBooks.make("storybook", in: dir.appendingPathComponent("storybook")).deletingLastPathComponent(), at: zip)
        let id = try await server.submit(try Data(contentsOf: zip), type: "application/zip", query: "?png=false&profile=lulu")
        // A job rendered for no printer, to order and to borrow a signature for.
        let other = try await server.submit(try inlined(Repository.samples.appendingPathComponent("memoir/book.json")), type: "application/json", query: "?png=false")
        #expect(try await server.wait(other)["state"] as? String == "done")
        let refused = try await order(server, other, ["shipTo": Self.shipTo])
        #expect(refused.status == 409 && refused.errorCode == "noPrintProfile", "\(refused.errorMessage)")
        let finished = try await server.wait(id)
        #expect(finished["state"] as? String == "done", "\(finished)")

        // The address is checked before anything else is done.
        let badAddress = try await order(server, id, ["shipTo": Self.shipTo.merging(["phone_number": "12"]) { $1 }])
        #expect(badAddress.status == 400 && badAddress.errorMessage.contains("shipTo: $.phone_number"), "\(badAddress.errorMessage)")

        let accepted = try await order(server, id, ["shipTo": Self.shipTo, "binding": "hardcover", "quantity": 2])
        #expect(accepted.status == 202, "\(String(decoding: accepted.body, as: UTF8.self))")
        // The job's events go on while its order is under way, and end once it is placed.
        let events = try await server.events(id)
        let states = events.filter { $0.name == "status" }.compactMap { ($0.data["order"] as? [String: Any])?["state"] as? String }
        #expect(states.last == "placed", "\(events.map(\.text))")
        // A client that starts listening late sees fewer steps, never one after the order is placed.
        #expect(states.firstIndex(of: "placed") == states.count - 1, "the order's steps come before it is placed: \(states)")
        #expect(events.last?.name == "end")

        let statusReply = try await server.call(.GET, "/v1/jobs/\(id)")
        try expectMatchesOpenAPI(statusReply.body, "JobStatus")
        let placed = try #require(statusReply.json["order"] as? [String: Any])
        #expect(placed["podPackageId"] as? String == "0850X1100FCPRECW080CW444GXX" && placed["quantity"] as? Int == 2, "\(placed)")
        let printJob = try #require(placed["printJobId"] as? Int)
        #expect(try mock.printJobs().count == 1)

        // Lulu fetched both files through the service, without its bearer token.
        let fetched = try mock.fetches().filter { ($0["url"] as? String)?.contains("/v1/order-files/\(id)/") == true }
        let interior = try #require(fetched.first { $0["kind"] as? String == "interior" }?["url"] as? String)
        #expect(fetched.count >= 2 && fetched.allSatisfy { $0["status"] as? Int == 200 }, "\(fetched)")
        let cover = try #require(fetched.first { $0["kind"] as? String == "cover" }?["url"] as? String)
        #expect(try mock.fetch(cover) == 200)
        // The signature holds for this job's file of this order only.
        #expect(try mock.fetch(interior.replacingOccurrences(of: "/v1/order-files/\(id)/", with: "/v1/order-files/\(other)/")) == 403)
        #expect(try mock.fetch(interior.replacingOccurrences(of: "interior.pdf", with: "cover.pdf")) == 403)
        let expires = try #require(URLComponents(string: interior)?.queryItems?.first { $0.name == "expires" }?.value.flatMap(Int.init))
        #expect(try mock.fetch(interior.replacingOccurrences(of: "expires=\(expires)", with: "expires=\(expires + 3600)")) == 403)
        #expect(try mock.fetch(String(interior.prefix { $0 != "?" })) == 403)
        // While Lulu may still download the files, the job stays.
        let removal = try await server.call(.DELETE, "/v1/jobs/\(id)")
        #expect(removal.status == 409 && removal.errorCode == "orderUnderWay", "\(removal.status) \(removal.errorMessage)")
        #expect(try mock.fetch(cover) == 200)
        // Nor do the data folder's limits remove it: started again with a limit every job is over,
        // the service's first sweep removes the other job and keeps this one.
        _ = server.stop()
        server = try ServeProcess(data: dir.appendingPathComponent("data"), arguments: arguments + ["--max-data-bytes", "1"], environment: mock.environment)
        logs.append(server.log)
        #expect(try await server.call(.GET, "/v1/jobs/\(other)").status == 404)
        #expect(try await server.call(.GET, "/v1/jobs/\(id)").status == 200)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/jobs/\(id)/out").path))
        // An order placed is answered, not placed again.
        let again = try await order(server, id, ["shipTo": Self.shipTo, "binding": "hardcover", "quantity": 2])
        #expect(again.status == 200 && (again.json["printJobId"] as? Int) == printJob)
        #expect(try mock.printJobs().count == 1)

        // Lulu's webhook, signed with the API secret, moves the order on; another signature changes nothing.
        #expect(try mock.advance(printJob, to: "IN_PRODUCTION", webhook: server.base + "/v1/lulu/webhook") == 200)
        #expect(try mock.advance(printJob, to: "SHIPPED", webhook: server.base + "/v1/lulu/webhook", goodSignature: false) == 401)
        let history = (try await server.call(.GET, "/v1/jobs/\(id)").json["order"] as? [String: Any])?["history"] as? [[String: Any]]
        #expect(history?.map { $0["name"] as? String } == ["CREATED", "IN_PRODUCTION"], "\(history ?? [])")
        #expect(history?.last?["source"] as? String == "webhook")

        // Once the address has expired, the file is refused even with its signature.
        while Date().timeIntervalSince1970 <= Double(expires) + 1 { try await Task.sleep(nanoseconds: 250_000_000) }
        #expect(try mock.fetch(interior) == 410)
        // The keys, and the tokens they bought, were never in what the service wrote: its log and
        // every file of its data folder.
        var written = logs.map { (try? Data(contentsOf: $0)) ?? Data() }
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/jobs/\(id)/order.json").path))
        let files = FileManager.default.enumerator(at: dir.appendingPathComponent("data"), includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            if !file.hasDirectoryPath, let data = try? Data(contentsOf: file) { written.append(data) }
        }
        let secrets = [mock.key, mock.secret, Data("\(mock.key):\(mock.secret)".utf8).base64EncodedString()] + (try mock.tokens())
        #expect(!(try mock.tokens()).isEmpty)
        for secret in secrets {
            for piece in [secret, String(secret.prefix(8)), String(secret.suffix(8))] {
                #expect(!written.contains { $0.range(of: Data(piece.utf8)) != nil }, "\(piece) was written")
            }
        }
    }
}
