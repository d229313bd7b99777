import Foundation
import Hummingbird
import NIOCore
import BookRenderKit

/// Ordering a finished job's printed copies from Lulu (docs/ordering.md): the order, the signed
/// file addresses Lulu downloads from without the bearer token, and Lulu's webhook.
struct OrderRoutes: Sendable {
    let config: ServeConfiguration
    let scheduler: JobScheduler
    let desk: OrderDesk

    /// Reached without the bearer token: each checks a signature of its own.
    static let openPrefixes = ["/v1/order-files/", "/v1/lulu/webhook"]

    func register(on router: Router<BasicRequestContext>) {
        router.post("/v1/jobs/:id/order") { request, context in
            await answer { try await order(context.parameters.get("id") ?? "", request) }
        }
        router.get("/v1/order-files/:id/:file") { request, context in
            await answer { try await file(context.parameters.get("id") ?? "", context.parameters.get("file") ?? "", request) }
        }
        router.post("/v1/lulu/webhook") { request, _ in await answer { try await webhook(request) } }
    }

    private func answer(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch let e as APIError {
            return JSONReply.error(e)
        } catch {
            return JSONReply.error(APIError(500, "internal", "\(error)"))
        }
    }

    private func job(_ id: String) throws -> JobRecord {
        guard JobID.isWellFormed(id), let job = try scheduler.store.job(id) else {
            throw APIError(404, "noSuchJob", "no job \(id); POST /v1/jobs returns the id of a new one")
        }
        return job
    }

    private func order(_ id: String, _ request: Request) async throws -> Response {
        let job = try job(id)
        let body = try await request.body.collect(upTo: 1 << 20)
        let order = try OrderRequest.parse(Data(body.readableBytesView))
        let (record, status) = try await desk.order(job, order)
        return JSONReply.response(record, status: status)
    }

    private func file(_ id: String, _ name: String, _ request: Request) async throws -> Response {
        var query: [String: String] = [:]
        for (k, v) in request.uri.queryParameters { query[String(k)] = String(v) }
        guard let order = query["order"], let expires = query["expires"].flatMap(Int.init), let signature = query["signature"] else {
            throw APIError(403, "badSignature", "an order file is fetched through the signed address the order gave the printer")
        }
        switch desk.signer.check(job: id, file: name, order: order, expires: expires, signature: signature) {
        case .good: break
        case .badSignature: throw APIError(403, "badSignature", "this address was not signed by this service for this job's file")
        case .expired: throw APIError(410, "expired", "this address expired; ordering the job again gives the printer new ones")
        }
        let job = try job(id)
        let folder = JobFolder(jobs: config.jobsFolder, id: id)
        // Only for the order it was made for: a later order of the job gets addresses of its own.
        guard OrderDesk.record(folder)?.externalId == order, OrderFileSigner.files.contains(name), job.state == .done else {
            throw APIError(403, "badSignature", "this address belongs to an order this job no longer has")
        }
        guard let data = try? Data(contentsOf: name == "cover.pdf" ? folder.cover : folder.pdf) else {
            throw APIError(404, "noSuchFile", "job \(id) has no \(name)")
        }
        return JSONReply.data(data, type: "application/pdf")
    }

    private func webhook(_ request: Request) async throws -> Response {
        let body = Data(try await request.body.collect(upTo: 4 << 20).readableBytesView)
        guard let secret = config.lulu?.webhookSecret, !secret.isEmpty else {
            throw APIError(503, "orderingOff", "the service has no Lulu keys to check a webhook's signature with")
        }
        let signature = request.headers.first { $0.name.canonicalName == LuluWebhook.signatureHeader.lowercased() }.map { String($0.value) }
        guard LuluWebhook.verify(body: body, signature: signature, secret: secret) else {
            throw APIError(401, "badSignature", "the \(LuluWebhook.signatureHeader) header is not the body's HMAC-SHA256 under the Lulu API secret")
        }
        let hook: LuluWebhook
        do { hook = try LuluWebhook.parse(body) } catch { throw APIError(400, "invalidWebhook", error.message) }
        // Lulu stops sending to an address that fails five times: anything signed and readable is taken.
        guard hook.topic == LuluWebhook.statusTopic else {
            return JSONReply.response(["status": "ignored", "reason": "topic \(hook.topic) is not followed"])
        }
        let (job, note) = await desk.webhook(hook)
        return JSONReply.response(["status": job == nil ? "ignored" : "recorded", "reason": note])
    }
}
