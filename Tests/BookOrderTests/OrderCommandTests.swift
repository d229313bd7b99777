import Foundation
import Testing
import BookTestSupport

/// `bookrender order` from a book to a placed print job, against the loopback Lulu: quote, submit
/// and status for the storybook (paperback and hardcover) and the memoir, a retried submit, a cover
/// that does not fit, the dry run, and the keys kept out of everything written.
@Suite struct OrderCommandTests {
    static let shipTo = #"{"name": "Ada Whitlow", "street1": "101 Independence Ave SE", "city": "Washington", "state_code": "DC", "postcode": "20540", "country_code": "US", "phone_number": "+1 206 555 0100", "email": "ada@example.com"}"#

    struct Order {
        let mock: LuluMock
        let rendered: RenderedBooks.Rendered
        let folder: URL
        let binding: String
        var shipTo: URL { folder.appendingPathComponent("ship-to.json") }
        var record: URL { folder.appendingPathComponent("order.json") }

        init(_ rendered: RenderedBooks.Rendered, binding: String = "paperback") throws {
            self.rendered = rendered
            self.binding = binding
            mock = try LuluMock()
            folder = try temporaryDirectory("order")
            try Data(OrderCommandTests.shipTo.utf8).write(to: folder.appendingPathComponent("ship-to.json"))
            try FileManager.default.copyItem(at: rendered.interior, to: mock.files.appendingPathComponent("interior.pdf"))
            try FileManager.default.copyItem(at: rendered.covers[binding]!, to: mock.files.appendingPathComponent("cover.pdf"))
        }

        var common: [String] { [rendered.book.path, "--ship-to", shipTo.path, "--binding", binding, "--base-url", mock.baseURL] }
        var urls: [String] { ["--interior-url", mock.baseURL + "/files/interior.pdf", "--cover-url", mock.baseURL + "/files/cover.pdf"] }

        func bookrender(_ args: [String], environment: [String: String]? = nil) throws -> ToolResult {
            try run(try Repository.binary.path, args, environment: environment ?? mock.environment)
        }

        /// The result on stdout, of the shape schema/report.schema.json publishes.
        func json(_ r: ToolResult) throws -> [String: Any] {
            let object = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], "\(r.stdout)\n\(r.stderr)")
            let schema = Repository.root.appendingPathComponent("schema/report.schema.json")
            if let violations = try JSONSchemaCheck.violations(of: r.stdoutData, against: schema) {
                #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
            } else {
                Issue.record("Python's jsonschema module is missing: run scripts/install-deps.sh")
            }
            return object
        }
    }

    static let cases: [(String, String, String)] = [
        ("storybook", "paperback", "0850X1100FCPREPB080CW444GXX"),
        ("storybook", "hardcover", "0850X1100FCPRECW080CW444GXX"),
        ("memoir", "paperback", "0600X0900FCSTDPB080CW444MXX"),
    ]

    @Test(arguments: cases)
    func quoteSubmitAndStatus(_ name: String, _ binding: String, _ product: String) throws {
        let o = try Order(try (name == "storybook" ? RenderedBooks.storybook : RenderedBooks.memoir).get(), binding: binding)
        defer { try? FileManager.default.removeItem(at: o.folder) }

        let quote = try o.bookrender(["order", "quote"] + o.common + ["--quantity", "3", "--json"])
        #expect(quote.status == 0, "\(quote.stderr)")
        let q = try o.json(quote)
        #expect(q["command"] as? String == "order" && q["step"] as? String == "quote")
        #expect(q["podPackageId"] as? String == product)
        let cover = try #require(q["cover"] as? [String: Any])
        #expect(cover["matches"] as? Bool == true, "\(cover)")
        // Money is a decimal string, and the parts add up to Lulu's total exactly.
        let costs = try #require(q["costs"] as? [String: String], "\(q["costs"] ?? "")")
        for (k, v) in costs where k != "currency" { #expect(v.range(of: #"^\d+\.\d{2}$"#, options: .regularExpression) != nil, "\(k): \(v)") }
        let sum = ["printing", "shipping", "fulfillment"].compactMap { costs[$0].flatMap { Decimal(string: $0) } }.reduce(0, +)
        #expect(sum == Decimal(string: costs["total"] ?? ""), "\(costs)")
        #expect((q["shippingOptions"] as? [[String: Any]])?.map { $0["level"] as? String } == ["MAIL", "PRIORITY_MAIL", "GROUND", "EXPEDITED", "EXPRESS"])

        let submit = try o.bookrender(["order", "submit"] + o.common + o.urls + ["--quantity", "3", "--record", o.record.path, "--json"])
        #expect(submit.status == 0, "\(submit.stderr)")
        let s = try o.json(submit)
        let order = try #require(s["order"] as? [String: Any])
        #expect(order["state"] as? String == "placed" && order["podPackageId"] as? String == product)
        let id = try #require(order["printJobId"] as? Int)
        let jobs = try o.mock.printJobs()
        #expect(jobs.count == 1 && jobs.first?["id"] as? Int == id)
        let line = try #require((jobs.first?["line_items"] as? [[String: Any]])?.first)
        #expect((line["printable_normalization"] as? [String: Any])?["pod_package_id"] as? String == product)
        #expect(line["quantity"] as? Int == 3)
        // Lulu fetched and measured both files, and never had to refuse a request.
        #expect(try o.mock.fetches().allSatisfy { $0["status"] as? Int == 200 })
        let requests = try o.mock.requests()
        #expect(requests.allSatisfy { (200..<300).contains($0.status) }, "\(requests.filter { $0.status >= 300 }.map(\.path))")

        try o.mock.advance(id, to: "UNPAID")
        try o.mock.advance(id, to: "PRODUCTION_DELAYED")
        let status = try o.bookrender(["order", "status", o.record.path, "--base-url", o.mock.baseURL, "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        let st = try o.json(status)
        #expect(st["status"] as? String == "PRODUCTION_DELAYED")
        #expect((st["history"] as? [[String: Any]])?.map { $0["name"] as? String } == ["CREATED", "PRODUCTION_DELAYED"])
        try o.mock.advance(id, to: "SHIPPED")
        let text = try o.bookrender(["order", "status", o.record.path, "--base-url", o.mock.baseURL])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("print job \(id)") && text.stdout.contains("SHIPPED") && text.stdout.contains("tracking: https://tracking.example/"),
                "\(text.stdout)")
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: o.record)) as? [String: Any]
        #expect((kept?["history"] as? [[String: Any]])?.map { $0["name"] as? String } == ["CREATED", "PRODUCTION_DELAYED", "SHIPPED"])
    }

    @Test func aRetriedSubmitPlacesOnePrintJob() throws {
        let o = try Order(try RenderedBooks.memoir.get())
        defer { try? FileManager.default.removeItem(at: o.folder) }
        // The first create is made by Lulu and its answer lost on the way back.
        try o.mock.script(["fail": [["method": "POST", "path": "/print-jobs/", "status": 502, "times": 1, "after": true]]])
        let first = try o.bookrender(["order", "submit"] + o.common + o.urls + ["--record", o.record.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("already placed: print job 1001"), "\(first.stdout)")
        // The whole command again, as a shop's retry would run it.
        let again = try o.bookrender(["order", "submit"] + o.common + o.urls + ["--record", o.record.path])
        #expect(again.status == 0 && again.stdout.contains("already placed: print job 1001"), "\(again.stdout)\(again.stderr)")
        #expect(try o.mock.printJobs().count == 1)
        #expect(try o.mock.requests().filter { $0.method == "POST" && $0.path == "/print-jobs/" }.count == 1)
    }

    @Test func aCoverThePrinterSizesOtherwiseIsRefusedBeforeAnythingIsOrdered() throws {
        let o = try Order(try RenderedBooks.storybook.get(), binding: "hardcover")
        defer { try? FileManager.default.removeItem(at: o.folder) }
        // Lulu's sheet a tenth of an inch wider than bookrender's.
        try o.mock.script(["cover_width_offset_pt": 7.2])
        let failed = try o.bookrender(["order", "quote"] + o.common + ["--json"])
        let error = try #require(try o.json(failed)["error"] as? [String: Any])
        #expect(failed.status == 65 && error["kind"] as? String == "orderRejected", "\(error)")
        for step in [["quote"], ["submit"] + o.urls] {
            let r = try o.bookrender(["order"] + step + o.common)
            #expect(r.status == 65, "\(step[0]): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("Lulu computes 1375.20 × 918.00 pt") && r.stderr.contains("bookrender's cover sheet is 1368.00 × 918.00 pt"),
                    "\(r.stderr)")
            #expect(r.stderr.contains("nothing was ordered"))
        }
        let asked = try o.mock.requests().map(\.path)
        #expect(!asked.contains { $0.hasPrefix("/validate-") || $0 == "/print-job-cost-calculations/" || $0 == "/shipping-options/" }, "\(asked)")
        #expect(try o.mock.printJobs().isEmpty)
    }

    @Test func theDryRunShowsTheRequestsAndSendsNothing() throws {
        let o = try Order(try RenderedBooks.memoir.get())
        defer { try? FileManager.default.removeItem(at: o.folder) }
        var env = ProcessInfo.processInfo.environment
        env["LULU_CLIENT_KEY"] = nil
        env["LULU_CLIENT_SECRET"] = nil
        let r = try o.bookrender(["order", "submit"] + o.common + o.urls + ["--dry-run", "--external-id", "shop-4711"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        for line in ["POST \(o.mock.baseURL)/auth/realms/glasstree/protocol/openid-connect/token",
                     "GET \(o.mock.baseURL)/print-jobs/?search=shop-4711&exclude_line_items=true&page=1&page_size=100",
                     "POST \(o.mock.baseURL)/validate-cover/", "POST \(o.mock.baseURL)/print-jobs/",
                     #""external_id":"shop-4711""#, #""pod_package_id":"0600X0900FCSTDPB080CW444MXX""#, "Authorization: Bearer [the token]"] {
            #expect(r.stdout.contains(line), "\(line) in\n\(r.stdout)")
        }
        #expect(try o.mock.requests().isEmpty)
        // Without --record the record would go beside the book.
        let beside = o.rendered.book.deletingPathExtension().appendingPathExtension("order.json")
        #expect(!FileManager.default.fileExists(atPath: beside.path) && !FileManager.default.fileExists(atPath: o.record.path))
        let json = try o.bookrender(["order", "quote", o.rendered.book.path, "--ship-to", o.shipTo.path, "--base-url", o.mock.baseURL,
                                     "--dry-run", "--json"], environment: env)
        #expect(json.status == 0, "\(json.stderr)")
        let body = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(body?["command"] as? String == "order", "\(json.stdout.prefix(400))")
        #expect(json.stdout.contains("/shipping-options/") && json.stdout.contains("/print-job-cost-calculations/"), "\(json.stdout.prefix(600))")
        #expect(try o.mock.requests().isEmpty)
    }

    @Test func plainHTTPToAnotherMachineIsRefusedBeforeAnyRequest() throws {
        let o = try Order(try RenderedBooks.memoir.get())
        defer { try? FileManager.default.removeItem(at: o.folder) }
        let r = try o.bookrender(["order", "quote", o.rendered.book.path, "--ship-to", o.shipTo.path, "--base-url", "http://203.0.113.5:9"])
        #expect(r.status == 64, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains("only over https"), "\(r.stderr)")
        #expect(!r.stderr.contains(o.mock.secret) && !r.stderr.contains(o.mock.key))
    }

    @Test func nothingOfTheKeysOrTheTokenIsPrintedOrWritten() throws {
        let o = try Order(try RenderedBooks.memoir.get())
        defer { try? FileManager.default.removeItem(at: o.folder) }
        var outputs: [ToolResult] = []
        outputs.append(try o.bookrender(["order", "quote"] + o.common + ["--json"]))
        outputs.append(try o.bookrender(["order", "submit"] + o.common + o.urls + ["--record", o.record.path]))
        outputs.append(try o.bookrender(["order", "status", o.record.path, "--base-url", o.mock.baseURL, "--json"]))
        // A wrong secret: Lulu's refusal is reported, never the secret.
        var wrong = o.mock.environment
        wrong["LULU_CLIENT_SECRET"] = "d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70"
        outputs.append(try o.bookrender(["order", "quote"] + o.common, environment: wrong))
        #expect(outputs.last?.status == 70 && outputs.last?.stderr.contains("LULU_CLIENT_SECRET") == true, "\(outputs.last?.stderr ?? "")")
        // Lulu echoing the token in an error is taken out too.
        try o.mock.script(["fail": [["method": "POST", "path": "/shipping-options/", "status": 400, "times": 1, "echo": true]]])
        outputs.append(try o.bookrender(["order", "quote"] + o.common))
        #expect(outputs.last?.status == 65 && outputs.last?.stderr.contains("Authorization was Bearer [key]") == true, "\(outputs.last?.stderr ?? "")")
        let secrets = [o.mock.key, o.mock.secret, "d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70",
                       Data("\(o.mock.key):\(o.mock.secret)".utf8).base64EncodedString()] + (try o.mock.tokens())
        var written = outputs.flatMap { [$0.stdout, $0.stderr] }
        for file in try FileManager.default.contentsOfDirectory(at: o.folder, includingPropertiesForKeys: nil)
            + FileManager.default.contentsOfDirectory(at: o.rendered.book.deletingLastPathComponent(), includingPropertiesForKeys: nil)
            where !file.hasDirectoryPath && file.pathExtension != "pdf" && file.pathExtension != "jpg" && file.pathExtension != "png" {
            written.append(try String(contentsOf: file, encoding: .utf8))
        }
        #expect(written.joined().contains("placed"), "the order went through")
        for secret in secrets {
            for piece in [secret, String(secret.prefix(8)), String(secret.suffix(8))] {
                #expect(!written.contains { $0.contains(piece) }, "\(piece) was printed or written")
            }
        }
    }
}
