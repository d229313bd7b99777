import Foundation
import Testing
import Synchronization
import BookTestSupport
@testable import BookOrder

/// The order's steps against the loopback Lulu: expired tokens, failures mid-flow, a create whose
/// answer is lost, refusals with their reasons. Files are blank PDFs of the right sizes (Ghostscript),
/// so what is checked is the conversation, not the book.
@Suite struct LuluFlowTests {
    static let address = try! ShippingAddress.parse(Data(#"{"name": "Ada Whitlow", "street1": "101 Independence Ave SE", "city": "Washington", "state_code": "DC", "postcode": "20540", "country_code": "US", "phone_number": "+1 206 555 0100", "email": "ada@example.com"}"#.utf8), file: "test")

    /// A 6 × 9 in paperback of 40 pages, its interior and a cover of the printer's size at the mock's /files/.
    struct Setup {
        let mock: LuluMock
        let ordering: LuluOrdering
        var plan: OrderPlan
        let interior: URL
        let cover: URL
        /// Requests the stand-in had had when the test began (setting up asks it for the cover's size).
        let before: Int
    }

    func setup(secret: String? = nil, coverScale: Double = 1) async throws -> Setup {
        let mock = try LuluMock()
        let settings = LuluSettings(baseURL: mock.baseURL, clientKey: mock.key, clientSecret: secret ?? mock.secret, timeout: 30,
                                    pollInterval: 0, retryDelay: 0)
        let ordering = LuluOrdering(client: LuluClient(settings: settings, pause: { _ in }))
        var plan = OrderPlan(title: "Salt and Lanterns", package: try #require(PodPackage("0600X0900BWSTDPB060UW444MXX")), interiorPages: 40,
                             coverWidth: 0, coverHeight: 0, quantity: 2, address: Self.address, shippingLevel: "MAIL")
        try blankPDF(pages: 40, width: 450, height: 666, to: mock.files.appendingPathComponent("interior.pdf"))
        // The printer's own size, asked of the stand-in before any failure is scripted.
        let answer = try await LuluOrdering(client: LuluClient(settings: LuluSettings(baseURL: mock.baseURL, clientKey: mock.key,
                                                                                      clientSecret: mock.secret))).checkCover(plan)
        plan.coverWidth = answer.printerWidth
        plan.coverHeight = answer.printerHeight
        try blankPDF(pages: 1, width: answer.printerWidth * coverScale, height: answer.printerHeight, to: mock.files.appendingPathComponent("cover.pdf"))
        return Setup(mock: mock, ordering: ordering, plan: plan, interior: try #require(URL(string: mock.baseURL + "/files/interior.pdf")),
                     cover: try #require(URL(string: mock.baseURL + "/files/cover.pdf")), before: try mock.requests().count)
    }

    func blankPDF(pages: Int, width: Double, height: Double, to url: URL) throws {
        let r = try run("gs", ["-q", "-o", url.path, "-sDEVICE=pdfwrite", "-dDEVICEWIDTHPOINTS=\(width)", "-dDEVICEHEIGHTPOINTS=\(height)",
                               "-dFIXEDMEDIA", "-c", "\(pages) {showpage} repeat"])
        guard r.status == 0 else { throw ToolError("gs: \(r.stderr)") }
    }

    func submit(_ s: Setup, reference: String = "shop-order-1001") async throws -> LuluOrdering.Placed {
        try await s.ordering.submit(s.plan, externalID: reference, interior: s.interior, cover: s.cover, contactEmail: "shop@example.com") { _ in }
    }

    /// What the test's own steps sent.
    func sent(_ s: Setup) throws -> [LuluMock.Request] { Array(try s.mock.requests().dropFirst(s.before)) }

    /// The same without the token requests.
    func apiRequests(_ s: Setup) throws -> [LuluMock.Request] {
        try sent(s).filter { !$0.path.hasPrefix("/auth/") }
    }

    @Test func theWholeFlowPlacesOnePrintJobWithTheDocumentedWireFormat() async throws {
        let s = try await setup()
        let placed = try await submit(s)
        #expect(!placed.reused)
        #expect(placed.record.state == "placed" && placed.record.status == "CREATED" && placed.record.printJobId != nil)
        #expect(placed.record.costs?.currency == "USD" && placed.record.costs?.total != nil)
        let jobs = try s.mock.printJobs()
        #expect(jobs.count == 1 && jobs.first?["external_id"] as? String == "shop-order-1001")
        // The stand-in refuses any call that strays from the documentation: every one was answered 2xx.
        let requests = try sent(s)
        #expect(requests.allSatisfy { (200..<300).contains($0.status) }, "\(requests.filter { $0.status >= 300 }.map { "\($0.method) \($0.path) \($0.status)" })")
        #expect(requests.map { "\($0.method) \($0.path)" }.filter { !$0.contains("/validate-interior/1") && !$0.contains("/validate-cover/2") } == [
            "POST /auth/realms/glasstree/protocol/openid-connect/token", "GET /print-jobs/", "POST /cover-dimensions/",
            "POST /validate-interior/", "POST /validate-cover/", "POST /print-job-cost-calculations/", "POST /print-jobs/", "GET /print-jobs/1001/"])
        // One token for the whole order, and only ever as a bearer token to the API.
        #expect(requests.filter { $0.path.hasPrefix("/auth/") }.count == 1)
        #expect(try apiRequests(s).allSatisfy { $0.headers["authorization"]?.hasPrefix("Bearer ") == true })
        let fetched = try s.mock.fetches().map { "\($0["kind"] ?? "") \($0["status"] ?? "")" }
        #expect(fetched.contains("interior 200") && fetched.contains("cover 200"), "\(fetched)")
    }

    @Test func aTokenThatExpiresMidFlowIsFetchedAgainAndTheCallRepeated() async throws {
        let s = try await setup()
        // Each token works for two calls, then Lulu calls it expired.
        try s.mock.script(["expire_after_uses": 2])
        let placed = try await submit(s)
        #expect(placed.record.state == "placed")
        let requests = try sent(s)
        let tokens = requests.filter { $0.path.hasPrefix("/auth/") }.count
        let refused = requests.filter { $0.status == 401 }.count
        #expect(tokens >= 3, "\(tokens) tokens")
        // Each refusal cost exactly one new token, and the refused call went again.
        #expect(refused == tokens - 1, "\(refused) refusals for \(tokens) tokens")
        #expect(try s.mock.printJobs().count == 1)
    }

    /// A token Lulu says lives less than the safety margin is fetched anew before each call, so no
    /// call is sent with a token about to expire and none is refused.
    @Test func aTokenNearItsExpiryIsFetchedAgainBeforeTheCall() async throws {
        let s = try await setup()
        try s.mock.script(["token_lifetime": 20])
        let placed = try await submit(s)
        #expect(placed.record.state == "placed")
        let requests = try sent(s)
        let tokens = requests.filter { $0.path.hasPrefix("/auth/") }.count
        let calls = requests.filter { !$0.path.hasPrefix("/auth/") }.count
        #expect(requests.filter { $0.status == 401 }.isEmpty, "no call went out with an expiring token")
        #expect(tokens == calls, "\(tokens) tokens for \(calls) calls")
    }

    @Test func aServerErrorMidFlowIsRetriedWhereLuluSaysRepeatingIsSafe() async throws {
        let s = try await setup()
        try s.mock.script(["fail": [["method": "POST", "path": "/validate-interior/", "status": 503, "times": 1],
                                    ["method": "GET", "path": "/validate-cover/\\d+/", "status": 500, "times": 2],
                                    ["method": "POST", "path": "/print-job-cost-calculations/", "status": 502, "times": 1]]])
        let placed = try await submit(s)
        #expect(placed.record.state == "placed")
        let calls = try apiRequests(s).map { "\($0.method) \($0.path) \($0.status)" }
        #expect(calls.filter { $0.hasPrefix("POST /validate-interior/") } == ["POST /validate-interior/ 503", "POST /validate-interior/ 201"], "\(calls)")
        #expect(calls.filter { $0.hasPrefix("GET /validate-cover/") && $0.hasSuffix(" 500") }.count == 2, "\(calls)")
        #expect(try s.mock.printJobs().count == 1)
    }

    @Test func aCreateWhoseAnswerIsLostIsFoundByItsReferenceNotPlacedAgain() async throws {
        let s = try await setup()
        // Lulu makes the print job, and the answer never arrives whole.
        try s.mock.script(["fail": [["method": "POST", "path": "/print-jobs/", "status": 502, "times": 1, "after": true]]])
        let placed = try await submit(s)
        #expect(placed.reused, "the job the first create made is the one reported")
        #expect(try s.mock.printJobs().count == 1, "exactly one print job")
        let calls = try apiRequests(s).map { "\($0.method) \($0.path) \($0.status)" }
        #expect(calls.filter { $0.hasPrefix("POST /print-jobs/") } == ["POST /print-jobs/ 502"], "\(calls)")
        #expect(placed.record.printJobId == (try s.mock.printJobs().first?["id"] as? Int))
    }

    @Test func aCreateRefusedBeforeItWasMadeIsLookedUpThenSentAgainOnce() async throws {
        let s = try await setup()
        try s.mock.script(["fail": [["method": "POST", "path": "/print-jobs/", "status": 503, "times": 1]]])
        let placed = try await submit(s)
        #expect(!placed.reused)
        #expect(try s.mock.printJobs().count == 1)
        let calls = try apiRequests(s).map { "\($0.method) \($0.path) \($0.status)" }
        let first = try #require(calls.firstIndex(of: "POST /print-jobs/ 503"))
        #expect(calls[(first + 1)...].prefix(2) == ["GET /print-jobs/ 200", "POST /print-jobs/ 201"], "\(calls)")
    }

    @Test func theSameOrderSubmittedAgainIsFoundAndNothingIsSentTwice() async throws {
        let s = try await setup()
        _ = try await submit(s)
        let before = try apiRequests(s).count
        let again = try await submit(s)
        #expect(again.reused && again.cover == nil)
        #expect(try s.mock.printJobs().count == 1)
        let second = try apiRequests(s).dropFirst(before).map { "\($0.method) \($0.path)" }
        #expect(second == ["GET /print-jobs/", "GET /print-jobs/1001/"], "no validation, no price, no create: \(second)")
    }

    /// Lulu's search matches parts of fields and pages its answer, newest first: the order placed
    /// earlier sits on a later page behind newer jobs whose references contain its own, and is
    /// still found, so nothing is ordered twice.
    @Test func anOrderOnALaterPageOfTheSearchIsFoundAndNotPlacedAgain() async throws {
        let s = try await setup()
        _ = try await submit(s, reference: "1001")
        try s.mock.seed(externalIDs: (0..<25).map { "shop-\($0)-1001" })
        let before = try apiRequests(s).count
        let again = try await submit(s, reference: "1001")
        #expect(again.reused && again.record.printJobId == 1001)
        #expect(try s.mock.printJobs().count == 26, "nothing new placed")
        let second = try apiRequests(s).dropFirst(before)
        #expect(second.filter { $0.path == "/print-jobs/" && $0.method == "GET" }.map { $0.query["page"] ?? [] } == [["1"], ["2"], ["3"]],
                "the look-up read on to the page with the order")
        #expect(!second.contains { $0.method == "POST" })
    }

    @Test func aValidationErrorNamesTheFileAndTheProblemAndNothingIsOrdered() async throws {
        let s = try await setup()
        try s.mock.script(["interior_errors": ["Fonts are not embedded."]])
        let error = await #expect(throws: OrderError.self) { try await submit(s) }
        #expect(error?.kind == .rejected)
        #expect(error?.message.contains("interior PDF at \(s.mock.baseURL)/files/interior.pdf: Fonts are not embedded.") == true, "\(error?.message ?? "")")
        #expect(try s.mock.printJobs().isEmpty)
        #expect(!(try apiRequests(s)).contains { $0.path == "/print-jobs/" && $0.method == "POST" })
    }

    @Test func aCoverFileOfAnotherSizeIsRefusedByTheValidation() async throws {
        let s = try await setup(coverScale: 0.9)
        let error = await #expect(throws: OrderError.self) { try await submit(s) }
        #expect(error?.message.contains("cover PDF at \(s.mock.baseURL)/files/cover.pdf: Invalid file size") == true, "\(error?.message ?? "")")
        #expect(try s.mock.printJobs().isEmpty)
    }

    @Test func aCoverSheetOfAnotherWidthIsRefusedBeforeAnyFileIsValidated() async throws {
        var s = try await setup()
        s.plan.coverWidth += 7.2
        let error = await #expect(throws: OrderError.self) { try await submit(s) }
        let message = error?.message ?? ""
        #expect(message.contains(String(format: "Lulu computes %.2f × %.2f pt", s.plan.coverWidth - 7.2, s.plan.coverHeight)), "\(message)")
        #expect(message.contains(String(format: "bookrender's cover sheet is %.2f × %.2f pt", s.plan.coverWidth, s.plan.coverHeight)), "\(message)")
        #expect(!(try apiRequests(s)).contains { $0.path.hasPrefix("/validate-") || $0.path == "/print-job-cost-calculations/" })
        #expect(try s.mock.printJobs().isEmpty)
    }

    @Test func lulusFieldErrorsAreNamed() async throws {
        var s = try await setup()
        s.plan.package = try #require(PodPackage("0600X0900BWSTDSS060UW444MXX"))
        let error = await #expect(throws: OrderError.self) { try await s.ordering.checkCover(s.plan) }
        #expect(error?.kind == .rejected)
        #expect(error?.message.contains("refused the cover dimensions of 0600X0900BWSTDSS060UW444MXX with 40 pages (HTTP 400): pod_package_id: No cover dimensions for this binding.") == true,
                "\(error?.message ?? "")")
    }

    @Test func anUnknownPrintJobIsNamed() async throws {
        let s = try await setup()
        let error = await #expect(throws: OrderError.self) { try await s.ordering.status(printJobId: 424242) }
        #expect(error?.message.contains("has no print job 424242 (HTTP 404): Not found.") == true, "\(error?.message ?? "")")
    }

    @Test func wrongKeysAreNamedByTheirVariablesAndNeverShown() async throws {
        let s = try await setup(secret: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
        let error = await #expect(throws: OrderError.self) { try await s.ordering.checkCover(s.plan) }
        let message = error?.message ?? ""
        #expect(error?.kind == .failed)
        #expect(message.contains("LULU_CLIENT_KEY") && message.contains("LULU_CLIENT_SECRET"), "\(message)")
        for piece in ["0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0f1e2d3c", s.mock.key, "5ec56f60"] { #expect(!message.contains(piece), "\(message)") }
    }

    @Test func anAddressThatDoesNotSpeakTLSIsNamedAndNotTriedAgain() async throws {
        let mock = try LuluMock()
        let waits = Mutex(0)
        let settings = LuluSettings(baseURL: "https://127.0.0.1:\(mock.port)", clientKey: mock.key, clientSecret: mock.secret, timeout: 30, retryDelay: 0)
        let ordering = LuluOrdering(client: LuluClient(settings: settings, pause: { _ in waits.withLock { $0 += 1 } }))
        let plan = OrderPlan(title: "Salt and Lanterns", package: try #require(PodPackage("0600X0900BWSTDPB060UW444MXX")), interiorPages: 40,
                             coverWidth: 0, coverHeight: 0, quantity: 1, address: Self.address, shippingLevel: "MAIL")
        let error = await #expect(throws: OrderError.self) { try await ordering.checkCover(plan) }
        #expect(error?.kind == .failed)
        #expect(error?.message.contains("no TLS connection to https://127.0.0.1:\(mock.port): ") == true, "\(error?.message ?? "")")
        // The same handshake fails the same way every time: no wait for another attempt.
        #expect(waits.withLock { $0 } == 0, "\(waits.withLock { $0 }) retries")
    }

    @Test func keysGoOnlyOverTLSOrToThisMachine() throws {
        for (address, allowed) in [("https://api.sandbox.lulu.com", true), ("http://127.0.0.1:9", true), ("http://203.0.113.5:8080", false),
                                   ("http://api.lulu.com", false), ("ftp://api.lulu.com", false)] {
            let settings = LuluSettings(baseURL: address, clientKey: "k", clientSecret: "s")
            if allowed { #expect(throws: Never.self) { try settings.check() } } else {
                #expect(throws: OrderError.self, "\(address)") { try settings.check() }
            }
        }
        let missing = #expect(throws: OrderError.self) { try LuluSettings(baseURL: LuluSettings.sandbox, clientKey: "", clientSecret: "").check() }
        #expect(missing?.message.contains("LULU_CLIENT_KEY and LULU_CLIENT_SECRET") == true)
    }
}
