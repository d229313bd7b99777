import ArgumentParser
import Foundation
import BookRenderKit
import BookServe

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the render service: an HTTP API that takes books, queues them and renders each in its own process.",
        discussion: """
        Jobs and their state live in DATA (jobs.sqlite and one folder a job) and survive a restart: jobs \
        that were running start again, and generated pictures are not paid for twice. Every request but \
        /healthz needs Authorization: Bearer TOKEN, the token from BOOKRENDER_SERVE_TOKEN or --token-file; \
        --no-auth is allowed only on a loopback address. SIGTERM stops taking jobs, lets running ones \
        finish for --grace seconds, then queues them again and exits. See docs/serve.md.
        """)

    @Option(name: .long, help: "Folder for the job database, the books and their outputs.")
    var data: String

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(name: .long, help: "File holding the bearer token (instead of BOOKRENDER_SERVE_TOKEN).")
    var tokenFile: String?

    @Flag(name: .long, help: "Take requests without a token; only with a loopback --host.")
    var noAuth = false

    @Option(name: .long, help: "Books rendered at once.")
    var workers = 1

    @Option(name: .long, help: "Books of one client (its X-Client header) rendered at once (default: as many as --workers; the clients take turns for each free worker).")
    var perClient: Int?

    @Option(name: .long, help: "Largest request body, in bytes.")
    var maxBodyBytes = 256 * 1024 * 1024

    @Option(name: .long, help: "Most bytes a zipped book may unpack to.")
    var maxUnpackedBytes = 1024 * 1024 * 1024

    @Option(name: .long, help: "Most entries in a zipped book.")
    var maxZipEntries = 2000

    @Option(name: .long, help: "Most pages in a book.")
    var maxPages = 1000

    @Option(name: .long, help: "Seconds running jobs get to finish after SIGTERM before they are queued again.")
    var grace: Double = 30

    @Option(name: .long, help: "Seconds one job may run before it is stopped and failed (0: no limit).")
    var jobTimeout: Double = ServeConfiguration.defaultJobTimeout

    @Option(name: .long, help: "How long a finished job is kept before it is removed, such as 7d, 12h, 30m or 90s (default: until deleted).")
    var keep: String?

    @Option(name: .long, help: "Most bytes the job folders may hold; past it the oldest finished jobs are removed (default: no limit).")
    var maxDataBytes: Int?

    @Option(name: .long, help: "Image providers' address for fillMissing jobs (a proxy or gateway); the provider's own by default.")
    var providerBaseURL: String?

    @Option(name: .long, help: "The address Lulu reaches this service at (scheme, host, port), for the signed file addresses of an order (POST /v1/jobs/ID/order).")
    var publicURL: String?

    @Flag(name: .long, help: "Order from Lulu's production API (real books, real charges); default: its sandbox. Keys from LULU_CLIENT_KEY and LULU_CLIENT_SECRET.")
    var luluProduction = false

    @Option(name: .long, help: "Lulu's address instead (a proxy, a test server); keys go only over https or to this machine.")
    var luluBaseURL: String?

    @Option(name: .long, help: "Seconds the signed file addresses of an order work.")
    var orderURLLifetime: Double = 86_400

    @OptionGroup(title: "Limits") var limits: LimitFlags

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard workers >= 1, perClient ?? 1 >= 1 else { throw ValidationError("--workers and --per-client must be at least 1") }
        guard jobTimeout >= 0 else { throw ValidationError("--job-timeout must not be negative (0: no limit)") }
        if let keep, Self.seconds(keep) == nil {
            throw ValidationError("--keep takes an age such as 7d, 12h, 30m or 90s, not \"\(keep)\"")
        }
        if let maxDataBytes, maxDataBytes < 1 { throw ValidationError("--max-data-bytes must be at least 1") }
        guard maxBodyBytes >= 1, maxUnpackedBytes >= 1, maxZipEntries >= 1, maxPages >= 1 else {
            throw ValidationError("the --max-… limits must be at least 1")
        }
        guard grace >= 0 else { throw ValidationError("--grace must not be negative") }
        if luluProduction, luluBaseURL != nil { throw ValidationError("--lulu-production and --lulu-base-url both say where Lulu is; give one") }
        guard orderURLLifetime > 0 else { throw ValidationError("--order-url-lifetime must be positive") }
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil else {
                throw ValidationError("--public-url must be an http(s) address such as https://render.example.com")
            }
        }
        if noAuth, !Self.isLoopback(host) {
            throw ValidationError("--no-auth is allowed only on a loopback address (127.0.0.1, ::1, localhost); set a token to listen on \(host)")
        }
    }

    /// "7d", "12h", "30m", "90s" (or plain seconds) in seconds.
    static func seconds(_ age: String) -> Double? {
        let units: [Character: Double] = ["d": 86400, "h": 3600, "m": 60, "s": 1]
        var text = Substring(age.trimmingCharacters(in: .whitespaces))
        var unit = 1.0
        if let last = text.last, let u = units[last] { unit = u; text = text.dropLast() }
        guard let n = Double(text), n.isFinite, n > 0 else { return nil }
        return n * unit
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    func run() throws {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let command = self
        Task {
            do { try await command.serve() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private func serve() async throws {
        var token: String?
        if !noAuth {
            if let tokenFile {
                guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                    throw ValidationError("cannot read the token file \(tokenFile)")
                }
                token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                token = ProcessInfo.processInfo.environment["BOOKRENDER_SERVE_TOKEN"]
            }
            guard let t = token, !t.isEmpty else {
                throw ValidationError("no token: set BOOKRENDER_SERVE_TOKEN or --token-file (or --no-auth on a loopback address)")
            }
        }
        var config = ServeConfiguration(dataFolder: URL(fileURLWithPath: data),
                                        executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
        config.host = host; config.port = port; config.token = token; config.workers = workers
        config.perClient = perClient; config.maxBodyBytes = maxBodyBytes; config.maxUnpackedBytes = maxUnpackedBytes
        config.maxZipEntries = maxZipEntries; config.maxPages = maxPages; config.limits = limits.limits
        config.grace = grace; config.jobTimeout = jobTimeout > 0 ? jobTimeout : nil; config.providerBaseURL = providerBaseURL
        config.keep = keep.flatMap(Self.seconds); config.maxDataBytes = maxDataBytes
        var lulu = LuluSettings.fromEnvironment(ProcessInfo.processInfo.environment, production: luluProduction, baseURL: luluBaseURL)
        if let v = ProcessInfo.processInfo.environment["BOOKRENDER_ORDER_POLL"].flatMap(Double.init) { lulu.pollInterval = v }
        do throws(OrderError) { try lulu.check(needKeys: false) } catch { throw ValidationError(error.message) }
        config.lulu = lulu
        config.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        config.orderFileLifetime = orderURLLifetime
        config.announce = { line in Console.error(line) }
        do { try await BookServer.run(config) } catch let e as ValidationError { throw e } catch {
            Console.error("bookrender serve: \(error)")
            throw ExitCode(70)
        }
    }
}

private final class Outcome: @unchecked Sendable {
    var error: (any Error)?
}
