import Foundation
import BookRenderKit

/// How the service runs: where it listens, where it keeps jobs, who may call it and how much it takes.
public struct ServeConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Jobs' books and outputs, the picture cache; the job database sits in it unless `database` says otherwise.
    public var dataFolder: URL
    public var database: URL?
    /// Required as `Authorization: Bearer …`; nil only when the service is open (loopback only).
    public var token: String?
    /// Jobs rendered at once.
    public var workers = 1
    /// Jobs of one client (the `X-Client` header) rendered at once; nil: as many as there are
    /// workers, the clients taking turns for each free worker.
    public var perClient: Int?
    public var maxBodyBytes = 256 * 1024 * 1024
    public var maxUnpackedBytes = 1024 * 1024 * 1024
    public var maxZipEntries = 2000
    public var maxPages = 1000
    public var limits = InputLimits()
    /// Seconds running jobs get to finish after SIGTERM before they are stopped and queued again.
    public var grace: Double = 30
    /// Seconds one job may run; nil: no limit.
    public var jobTimeout: Double? = ServeConfiguration.defaultJobTimeout
    public static let defaultJobTimeout: Double = 15 * 60
    /// Seconds a finished job is kept before its record and files are removed; nil: kept until deleted.
    public var keep: Double?
    /// Most bytes the job folders may hold together; past it the oldest finished jobs are removed.
    public var maxDataBytes: Int?
    /// The `bookrender` binary the jobs run (`export` in a child process).
    public var executable: URL
    /// The image providers' address for `fillMissing` jobs (a proxy, or a test server); the provider's own when nil.
    public var providerBaseURL: String?
    /// Lulu's Print API and its keys, for ordering finished jobs' printed copies.
    public var lulu: LuluSettings?
    /// The address the printer reaches this service at (scheme, host, port), for the signed file addresses of an order.
    public var publicURL: String?
    /// Seconds a signed file address of an order works.
    public var orderFileLifetime: Double = 86_400
    /// Where the service says it listens once it does (`listening on http://HOST:PORT`).
    public var announce: @Sendable (String) -> Void = { print($0) }

    public init(dataFolder: URL, executable: URL) {
        self.dataFolder = dataFolder; self.executable = executable
    }

    var databaseFile: URL { database ?? dataFolder.appendingPathComponent("jobs.sqlite") }
    var jobsFolder: URL { dataFolder.appendingPathComponent("jobs") }
    var cacheFolder: URL { dataFolder.appendingPathComponent("illustration-cache") }

    /// The limit flags the export children get, so a job is held to what the server was told.
    var limitArguments: [String] {
        ["--max-image-pixels", "\(limits.maxImagePixels)", "--max-text-length", "\(limits.maxTextLength)",
         "--max-book-text-length", "\(limits.maxBookTextLength)", "--max-word-length", "\(limits.maxWordLength)"]
    }
}
