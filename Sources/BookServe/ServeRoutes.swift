import Foundation
import Hummingbird
import NIOCore
import BookRenderKit

/// The HTTP API (docs/serve.md, schema/serve.openapi.yaml).
struct ServeRoutes: Sendable {
    let config: ServeConfiguration
    let scheduler: JobScheduler
    let shutdown: ShutdownFlag
    let catalog: ServeCatalog

    func register(on router: Router<BasicRequestContext>) {
        router.middlewares.add(BearerAuth<BasicRequestContext>(token: config.token))
        router.middlewares.add(RouteFallback<BasicRequestContext>())
        router.get("/healthz") { _, _ in
            JSONReply.response(["status": shutdown.isSet ? "stopping" : "ok"], status: shutdown.isSet ? 503 : 200)
        }
        router.get("/metrics") { _, _ in await answer { try await metrics() } }
        router.post("/v1/jobs") { request, _ in await answer { try await submit(request) } }
        router.get("/v1/jobs") { request, _ in await answer { try await list(request) } }
        router.get("/v1/jobs/:id") { _, context in
            await answer { JSONReply.response(try await status(context.parameters.get("id") ?? "")) }
        }
        router.delete("/v1/jobs/:id") { _, context in await answer { try await delete(context.parameters.get("id") ?? "") } }
        router.get("/v1/jobs/:id/events") { _, context in await answer { try await events(context.parameters.get("id") ?? "") } }
        router.get("/v1/jobs/:id/pdf") { _, context in
            await answer { try await finishedFile(context.parameters.get("id") ?? "", "application/pdf") { $0.pdf } }
        }
        router.get("/v1/jobs/:id/report") { _, context in await answer { try await report(context.parameters.get("id") ?? "") } }
        router.get("/v1/jobs/:id/pages/:file") { _, context in
            await answer {
                let id = context.parameters.get("id") ?? "", file = context.parameters.get("file") ?? ""
                guard file.hasSuffix(".png"), let n = Int(file.dropLast(4)), n >= 1 else {
                    throw APIError(404, "noSuchPage", "pages are named by number, such as /v1/jobs/\(ClientText.clipped(id))/pages/1.png")
                }
                // Page 1 may be fetched while the rest is rendered, once its own export has put it in place.
                let job = try record(id)
                let early = JobFolder(jobs: config.jobsFolder, id: id).previewPNG
                if n == 1, job.state == .running, let data = try? Data(contentsOf: early) {
                    return JSONReply.data(data, type: "image/png")
                }
                return try await finishedFile(id, "image/png") { folder in
                    guard let url = folder.pagePNGs()[n] else {
                        throw APIError(404, "noSuchPage", "the job has no page \(n) PNG; its status lists the pages it has")
                    }
                    return url
                }
            }
        }
    }

    /// Every answer's error as a client reads it: what the service says never shows its disk's paths.
    private func answer(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch var e as APIError {
            e.message = ClientText.forClient(e.message, dataFolder: config.dataFolder)
            return JSONReply.error(e)
        } catch {
            return JSONReply.error(APIError(500, "internal", "the service failed to answer; try again"))
        }
    }

    private func notFound(_ id: String) -> APIError {
        APIError(404, "noSuchJob", "no job \(ClientText.clipped(id)); POST /v1/jobs returns the id of a new one")
    }

    private func record(_ id: String) throws -> JobRecord {
        guard JobID.isWellFormed(id), let job = try scheduler.store.job(id) else { throw notFound(id) }
        return job
    }

    func status(_ id: String) async throws -> JobStatus {
        let job = try record(id)
        return JobStatus(job, folder: JobFolder(jobs: config.jobsFolder, id: job.id))
    }

    /// A file of a finished job: never one an export is still writing.
    private func finishedFile(_ id: String, _ type: String, _ pick: (JobFolder) throws -> URL) async throws -> Response {
        JSONReply.data(try finishedData(id, pick), type: type)
    }

    private func finishedData(_ id: String, _ pick: (JobFolder) throws -> URL) throws -> Data {
        let job = try record(id)
        let folder = JobFolder(jobs: config.jobsFolder, id: id)
        switch job.state {
        case .done: break
        case .queued, .running:
            throw APIError(409, "notReady", "job \(id) is \(job.state.rawValue); its files can be fetched once its state is done (poll /v1/jobs/\(id) or stream /v1/jobs/\(id)/events)")
        case .failed, .cancelled:
            let why = job.error.map { ": " + ClientText.forClient($0.message, job: folder) } ?? ""
            throw APIError(409, "noOutput", "job \(id) is \(job.state.rawValue) and has no output\(why)")
        }
        let url = try pick(folder)
        guard let data = try? Data(contentsOf: url) else {
            throw APIError(404, "noSuchFile", "job \(id) wrote no \(url.lastPathComponent)\(job.options.wantsPNG ? "" : "; page PNGs are made unless png=false")")
        }
        return data
    }

    /// The export's report: a done job's, or a failed one's when its export got as far as writing
    /// one (a failed preflight's findings, a book's problems), its messages worded for the client.
    private func report(_ id: String) async throws -> Response {
        let job = try record(id)
        let folder = JobFolder(jobs: config.jobsFolder, id: id)
        let data: Data
        if job.state == .failed, let written = try? Data(contentsOf: folder.report) {
            data = written
        } else {
            data = try finishedData(id) { $0.report }
        }
        guard let text = ReportText.forClient(data, job: folder) else {
            throw APIError(404, "noSuchFile", "job \(id) has no readable report")
        }
        return JSONReply.data(text, type: "application/json")
    }

    /// Cancels a queued or running job; removes a finished one, its files and its record.
    private func delete(_ id: String) async throws -> Response {
        let job = try record(id)
        if job.state.isFinal {
            if let reason = OrderHold.reason(JobFolder(jobs: config.jobsFolder, id: id)) {
                throw APIError(409, "orderUnderWay", "job \(id) is kept: \(reason)")
            }
            guard try await scheduler.remove(id) != nil else { throw notFound(id) }
            return Response(status: .noContent)
        }
        guard try await scheduler.cancel(id) != nil else { throw notFound(id) }
        return JSONReply.response(try await status(id))
    }

    private func list(_ request: Request) async throws -> Response {
        let query = try JobListing.Query(request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        return JSONReply.response(try JobListing.page(query, store: scheduler.store, jobsFolder: config.jobsFolder))
    }

    private func metrics() async throws -> Response {
        let counts = try scheduler.store.counts()
        let m = await scheduler.metrics, busy = await scheduler.busy
        let text = m.text(queued: counts[.queued] ?? 0, busy: busy, workers: config.workers, jobTimeout: config.jobTimeout, byState: counts)
        return JSONReply.data(Data(text.utf8), type: "text/plain; version=0.0.4")
    }

    private func submit(_ request: Request) async throws -> Response {
        guard !shutdown.isSet else {
            throw APIError(503, "stopping", "the service is shutting down; submit again once it is back")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > config.maxBodyBytes {
            throw tooLarge()
        }
        let client = try ClientName.of(request)
        let queryOptions = try ServeJobOptions.fromQuery(request.uri.queryParameters.map { (String($0.key), String($0.value)) }
            .filter { !$0.0.isEmpty })
        let id = JobID.make()
        let folder = JobFolder(jobs: config.jobsFolder, id: id)
        let intake = BookIntake(zip: ZipIntake(maxEntries: config.maxZipEntries, maxBytes: config.maxUnpackedBytes),
                                limits: config.limits)
        let contentType = request.headers[.contentType]
        let config = self.config, catalog = self.catalog
        do {
            try await BodySpool.write(request.body, to: folder, limit: config.maxBodyBytes, tooLarge: tooLarge())
            let job: JobRecord = try await Background.run {
                let received = try intake.receive(folder.upload, contentType: contentType, into: folder.input)
                let options = try queryOptions.over(received.options ?? ServeJobOptions()).validated()
                try catalog.check(options)
                try BookCheck.check(received, job: folder, options: options, config: config, catalog: catalog)
                return JobRecord(id: id, client: client, state: .queued, options: options, book: received.book.path,
                                 created: Date(), attempts: 0)
            }
            try await scheduler.submit(job)
            var headers: HTTPFields = [:]
            headers[.location] = "/v1/jobs/\(id)"
            return JSONReply.response(JobStatus(job, folder: folder), status: 202, headers: headers)
        } catch {
            try? FileManager.default.removeItem(at: folder.root)
            throw error
        }
    }

    private func tooLarge() -> APIError {
        APIError(413, "bodyTooLarge", "the request body is larger than \(config.maxBodyBytes) bytes, the most the service takes (its --max-body-bytes); send smaller pictures")
    }

    /// Server-sent events: `status` whenever the job's status changes, `page` for each page PNG as
    /// it becomes fetchable, and `end` once the job is finished and no order of it is under way
    /// (the stream then closes).
    private func events(_ id: String) async throws -> Response {
        _ = try record(id)
        let routes = self
        var headers: HTTPFields = [:]
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var last: JobStatus?
            var sentPages = Set<Int>()
            var quiet = 0
            while true {
                guard let status = try? await routes.status(id) else { break }
                // Pages first: a page was made before the state it is read with, so a job that
                // finished between two looks still streams its pages before its "done".
                for page in status.pages where !sentPages.contains(page.number) {
                    sentPages.insert(page.number)
                    try await writer.write(ByteBuffer(string: ServerSentEvent.format("page", JSONReply.encode(page))))
                }
                if status != last {
                    try await writer.write(ByteBuffer(string: ServerSentEvent.format("status", JSONReply.encode(status))))
                    last = status
                    quiet = 0
                }
                if status.isSettled {
                    try await writer.write(ByteBuffer(string: ServerSentEvent.format("end", JSONReply.encode(["state": status.state.rawValue]))))
                    break
                }
                if routes.shutdown.isSet { break }
                quiet += 1
                // A comment now and then keeps proxies from closing a quiet stream.
                if quiet % 60 == 0 { try await writer.write(ByteBuffer(string: ": waiting\n\n")) }
                try await Task.sleep(nanoseconds: 250_000_000)
            }
            try await writer.finish(nil)
        })
    }
}

enum ServerSentEvent {
    static func format(_ event: String, _ data: Data) -> String {
        "event: \(event)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
    }
}

/// Work that blocks (unpacking, reading a book) runs off the server's threads.
enum Background {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}

enum JobID {
    static func make() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<10).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }

    static func isWellFormed(_ id: String) -> Bool {
        id.count == 20 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

/// Set once SIGTERM (or SIGINT) arrives: no new job is taken, event streams close.
final class ShutdownFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
