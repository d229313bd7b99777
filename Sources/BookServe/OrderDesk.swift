import Foundation
import BookBase
import BookRenderKit

/// Orders of finished jobs from Lulu, one at a time per job, each in the background: the cover
/// rendered by its own `bookrender cover` child, the files offered to Lulu through signed
/// addresses, the print job placed once (its reference is the job's, so a repeated or resumed
/// order finds it), and its status kept in the job's `order.json`, where the job's status reads it
/// and Lulu's webhooks add to it.
actor OrderDesk {
    let config: ServeConfiguration
    let signer: OrderFileSigner
    let ordering: LuluOrdering?
    private var running: Set<String> = []

    init(config: ServeConfiguration) throws {
        self.config = config
        signer = try OrderFileSigner.load(dataFolder: config.dataFolder)
        ordering = config.lulu.flatMap { $0.hasKeys ? LuluOrdering(client: LuluClient(settings: $0)) : nil }
    }

    static func record(_ folder: JobFolder) -> OrderRecord? {
        FileManager.default.contents(atPath: folder.order.path).flatMap { try? JSONDecoder().decode(OrderRecord.self, from: $0) }
    }

    nonisolated static func write(_ record: OrderRecord, _ folder: JobFolder) throws(OrderError) {
        do { try AtomicOutput.write(try JSONOutput.encode(record), to: folder.order) } catch {
            throw OrderError(.failed, "cannot write the order of the job: \(error)")
        }
    }

    /// Starts the order, or answers with the one placed or under way: (record, HTTP status).
    func order(_ job: JobRecord, _ request: OrderRequest) throws(APIError) -> (OrderRecord, Int) {
        let folder = JobFolder(jobs: config.jobsFolder, id: job.id)
        guard job.state == .done else {
            throw APIError(409, "notReady", "job \(job.id) is \(job.state.rawValue); a job is ordered once it is done")
        }
        guard job.options.profile == "lulu" else {
            throw APIError(409, "noPrintProfile", "job \(job.id) was rendered \(job.options.profile.map { "for \($0)" } ?? "without a print profile"); "
                           + "order a job submitted with profile=lulu, Lulu's print profile")
        }
        guard let ordering else {
            throw APIError(503, "orderingOff", "the service has no Lulu keys; start it with \(LuluSettings.keyVariable) and \(LuluSettings.secretVariable) set")
        }
        guard config.publicURL != nil else {
            throw APIError(503, "orderingOff", "the service does not know the address Lulu reaches it at; start it with --public-url")
        }
        let reference = request.externalId ?? "bookrender-\(job.id)"
        if let existing = Self.record(folder) {
            if running.contains(job.id) { return (existing, 202) }
            if existing.state == "placed" { return (existing, 200) }
        }
        running.insert(job.id)
        var start = OrderRecord(environment: ordering.settings.environmentName, externalId: reference, podPackageId: nil, quantity: request.quantity,
                                interiorPages: job.pages, shippingLevel: request.shipping, state: "rendering")
        if let previous = Self.record(folder), previous.externalId == reference { start.history = previous.history }
        do throws(OrderError) { try Self.write(start, folder) } catch {
            running.remove(job.id)
            throw APIError(500, "internal", error.message)
        }
        let desk = self
        Task.detached { await desk.run(job, request, start, ordering) }
        return (start, 202)
    }

    private func run(_ job: JobRecord, _ request: OrderRequest, _ start: OrderRecord, _ ordering: LuluOrdering) async {
        let folder = JobFolder(jobs: config.jobsFolder, id: job.id)
        let latest = Latest(start)
        defer { running.remove(job.id) }
        do throws(OrderError) {
            let plan = try await plan(job, request, folder)
            let expires = Int(Date().timeIntervalSince1970 + config.orderFileLifetime)
            guard let base = config.publicURL,
                  let interior = signer.url(base: base, job: job.id, file: "interior.pdf", order: start.externalId, expires: expires),
                  let cover = signer.url(base: base, job: job.id, file: "cover.pdf", order: start.externalId, expires: expires) else {
                throw OrderError(.failed, "--public-url \(config.publicURL ?? "") makes no address")
            }
            let placed = try await ordering.submit(plan, externalID: start.externalId, interior: interior, cover: cover,
                                                   contactEmail: request.contactEmail ?? request.address.email ?? "", previous: start) {
                (r: OrderRecord) throws(OrderError) in
                latest.set(r)
                try Self.write(r, folder)
            }
            if let id = placed.record.printJobId { index(printJob: id, job: job.id) }
        } catch {
            var record = latest.value
            record.state = "failed"
            record.error = error.message
            try? Self.write(record, folder)
        }
    }

    /// The product and the sheet: the book opened for its kind and pictures, the cover rendered
    /// by a child process for the chosen binding, its size and page count read from its report.
    private func plan(_ job: JobRecord, _ request: OrderRequest, _ folder: JobFolder) async throws(OrderError) -> OrderPlan {
        let document: BookDocument
        do {
            document = try BookDocument.open(URL(fileURLWithPath: job.book), settings: RenderSettings(theme: job.options.theme, profile: "lulu",
                                                                                                   workers: 1, limits: config.limits))
        } catch { throw OrderError(.rejected, error.message) }
        var choice = request.product
        if let code = request.podPackageId, let package = PodPackage(code) {
            choice.binding = package.isHardcover ? "hardcover" : "paperback"
            choice.paper = ["060UC444": "cream", "080CW444": "color"][package.paper] ?? "white"
        }
        let effective = choice.effective(storybook: document.book.kind == .storybook, hasPictures: document.book.pages.contains { $0.picture != nil })
        let sheet = try await CoverChild.render(config: config, job: job, folder: folder, binding: effective.binding, paper: effective.paper ?? "white")
        if let pages = job.pages, pages != sheet.interiorPages {
            throw OrderError(.rejected, "the cover was laid out for \(sheet.interiorPages) interior pages, and the job's PDF has \(pages); submit the book again")
        }
        let trimWidth = (sheet.sheetWidthInches - sheet.spineInches) / 2 * 72, trimHeight = sheet.sheetHeightInches * 72
        let package: PodPackage
        if let code = request.podPackageId.flatMap(PodPackage.init) { package = code } else {
            package = try effective.package(trimWidth: trimWidth, trimHeight: trimHeight, storybook: document.book.kind == .storybook,
                                            hasPictures: document.book.pages.contains { $0.picture != nil })
        }
        return OrderPlan(title: document.book.title, package: package, interiorPages: sheet.interiorPages, coverWidth: sheet.mediaWidthInches * 72,
                         coverHeight: sheet.mediaHeightInches * 72, quantity: request.quantity, address: request.address, shippingLevel: request.shipping)
    }

    /// Which job a print job belongs to, for the webhooks that name only the print job.
    private func index(printJob id: Int, job: String) {
        let folder = config.dataFolder.appendingPathComponent("lulu-print-jobs")
        try? AtomicOutput.makeFolder(folder)
        try? AtomicOutput.write(Data(job.utf8), to: folder.appendingPathComponent("\(id)"))
    }

    /// A PRINT_JOB_STATUS_CHANGED webhook: the status joins the order's history.
    func webhook(_ hook: LuluWebhook) -> (job: String?, note: String) {
        let file = config.dataFolder.appendingPathComponent("lulu-print-jobs/\(hook.printJobId)")
        guard let id = FileManager.default.contents(atPath: file.path).map({ String(decoding: $0, as: UTF8.self) }), JobID.isWellFormed(id) else {
            return (nil, "no job of this service placed print job \(hook.printJobId)")
        }
        let folder = JobFolder(jobs: config.jobsFolder, id: id)
        guard var record = Self.record(folder), record.printJobId == hook.printJobId else {
            return (nil, "job \(id) has no order of print job \(hook.printJobId)")
        }
        record.note(hook.status)
        do throws(OrderError) { try Self.write(record, folder) } catch { return (id, error.message) }
        return (id, "print job \(hook.printJobId) is \(hook.status.name)")
    }
}

/// The order's record as its last step left it, for the step that fails after it.
private final class Latest: @unchecked Sendable {
    private let lock = NSLock()
    private var record: OrderRecord
    init(_ r: OrderRecord) { record = r }
    func set(_ r: OrderRecord) { lock.lock(); record = r; lock.unlock() }
    var value: OrderRecord { lock.lock(); defer { lock.unlock() }; return record }
}

extension JobFolder {
    /// The job's order from Lulu, once one is asked for.
    var order: URL { root.appendingPathComponent("order.json") }
    /// The printed cover an order renders.
    var cover: URL { output.appendingPathComponent("cover.pdf") }
}
