import Foundation
import BookHTTP

/// The printer's flow, step by step as Lulu documents it: the cover's size for the product and
/// page count, the files validated, the shipping options and the price, then the print job,
/// placed once, and its status.
public struct LuluOrdering: Sendable {
    public let client: LuluClient

    public init(client: LuluClient) { self.client = client }

    public var settings: LuluSettings { client.settings }

    // MARK: Calls

    static func coverDimensions(_ plan: OrderPlan) -> LuluCall {
        .post("/cover-dimensions/", LuluWire.CoverDimensionsRequest(pod_package_id: plan.package.description,
                                                                    interior_page_count: plan.interiorPages, unit: "pt"),
              "the cover dimensions of \(plan.package) with \(plan.interiorPages) pages", repeatable: true)
    }

    static func shippingOptions(_ plan: OrderPlan) -> LuluCall {
        .post("/shipping-options/", LuluWire.ShippingOptionsRequest(currency: nil, line_items: [plan.lineItem],
                                                                   shipping_address: plan.address.shippingOptionsAddress),
              "the shipping options", repeatable: true)
    }

    static func costCalculation(_ plan: OrderPlan) -> LuluCall {
        .post("/print-job-cost-calculations/", LuluWire.CostCalculationRequest(line_items: [plan.lineItem], shipping_address: plan.address,
                                                                              shipping_option: plan.shippingLevel),
              "a cost calculation", repeatable: true)
    }

    static func validateInterior(_ url: URL, _ plan: OrderPlan) -> LuluCall {
        .post("/validate-interior/", LuluWire.ValidateInteriorRequest(source_url: url.absoluteString, pod_package_id: plan.package.description),
              "a validation of the interior PDF", repeatable: true)
    }

    static func validateCover(_ url: URL, _ plan: OrderPlan) -> LuluCall {
        .post("/validate-cover/", LuluWire.ValidateCoverRequest(source_url: url.absoluteString, pod_package_id: plan.package.description,
                                                               interior_page_count: plan.interiorPages),
              "a validation of the cover PDF", repeatable: true)
    }

    static func findPrintJob(_ externalID: String, page: Int = 1) -> LuluCall {
        .get("/print-jobs/", query: [("search", externalID), ("exclude_line_items", "true"), ("page", String(page)),
                                     ("page_size", String(lookUpPageSize))],
             "the print jobs with external_id \(externalID)" + (page > 1 ? " (page \(page))" : ""))
    }

    /// Print jobs asked for a page at a time; Lulu may send fewer.
    static let lookUpPageSize = 100
    /// Pages read before the look-up gives up: a reference matched by more jobs than this is
    /// too short to find an order by, and guessing could order twice.
    static let lookUpPageLimit = 50

    static func createPrintJob(_ plan: OrderPlan, externalID: String, interior: URL, cover: URL, contactEmail: String) -> LuluCall {
        let item = LuluWire.PrintJobLineItem(
            external_id: externalID + "-1",
            printable_normalization: .init(cover: .init(source_url: cover.absoluteString), interior: .init(source_url: interior.absoluteString),
                                           pod_package_id: plan.package.description),
            quantity: plan.quantity, title: String(plan.title.prefix(255)))
        return .post("/print-jobs/", LuluWire.PrintJobRequest(contact_email: contactEmail, external_id: externalID, line_items: [item],
                                                             shipping_address: plan.address, shipping_level: plan.shippingLevel),
                     "a new print job", repeatable: false)
    }

    // MARK: Steps

    /// The printer's cover size for the plan, against the plan's own.
    public func checkCover(_ plan: OrderPlan) async throws(OrderError) -> CoverComparison {
        let call = Self.coverDimensions(plan)
        let answer = try await client.request(call, as: LuluWire.CoverDimensions.self)
        let scale: Double
        switch answer.unit {
        case "pt": scale = 1
        case "mm": scale = 72 / 25.4
        case "inch": scale = 72
        default: throw OrderError(.failed, "Lulu gave the cover dimensions in \"\(answer.unit)\", not pt, mm or inch")
        }
        guard let w = Money(answer.width).map({ NSDecimalNumber(decimal: $0.amount).doubleValue * scale }),
              let h = Money(answer.height).map({ NSDecimalNumber(decimal: $0.amount).doubleValue * scale }) else {
            throw OrderError(.failed, "Lulu gave the cover dimensions as \"\(answer.width)\" × \"\(answer.height)\", not decimal numbers")
        }
        let matches = abs(w - plan.coverWidth) <= CoverComparison.tolerance && abs(h - plan.coverHeight) <= CoverComparison.tolerance
        return CoverComparison(ourWidth: plan.coverWidth, ourHeight: plan.coverHeight, printerWidth: w, printerHeight: h, matches: matches)
    }

    /// Refuses a cover the printer would size otherwise, naming both sizes.
    static func requireMatch(_ c: CoverComparison, _ plan: OrderPlan) throws(OrderError) {
        guard !c.matches else { return }
        func size(_ w: Double, _ h: Double) -> String {
            String(format: "%.2f × %.2f pt (%.3f × %.3f in)", w, h, w / 72, h / 72)
        }
        throw OrderError(.rejected, "the cover does not fit: Lulu computes \(size(c.printerWidth, c.printerHeight)) for \(plan.package) "
                         + "(\(plan.package.spoken)) with \(plan.interiorPages) pages, bookrender's cover sheet is \(size(c.ourWidth, c.ourHeight)); "
                         + "nothing was ordered. Check the binding (--binding) and the book's trim, or render the cover again with "
                         + "`bookrender cover --profile lulu\(plan.package.isHardcover ? " --binding hardcover" : "")`")
    }

    public func shippingOptions(_ plan: OrderPlan) async throws(OrderError) -> [ShippingChoice] {
        let options = try await client.request(Self.shippingOptions(plan), as: [LuluWire.ShippingOption].self)
        return options.map {
            ShippingChoice(level: $0.level, cost: $0.cost_excl_tax, currency: $0.currency, arrivalEarliest: $0.min_delivery_date,
                           arrivalLatest: $0.max_delivery_date, traceable: $0.traceable)
        }
    }

    public func costs(_ plan: OrderPlan) async throws(OrderError) -> OrderCosts {
        let c = try await client.request(Self.costCalculation(plan), as: LuluWire.CostCalculation.self)
        let printing = c.line_item_costs.map(\.total_cost_incl_tax).reduce(Money.zero, +)
        let fees = c.fees.flatMap { fees in fees.isEmpty ? nil : fees.compactMap(\.total_cost_incl_tax).reduce(Money.zero, +) }
        return OrderCosts(currency: c.currency, unitCost: c.line_item_costs.first?.cost_excl_discounts, printing: printing,
                          shipping: c.shipping_cost.total_cost_incl_tax, fulfillment: c.fulfillment_cost?.total_cost_incl_tax,
                          fees: fees, tax: c.total_tax, totalExcludingTax: c.total_cost_excl_tax, total: c.total_cost_incl_tax)
    }

    public func quote(_ plan: OrderPlan) async throws(OrderError) -> OrderQuote {
        let cover = try await checkCover(plan)
        try Self.requireMatch(cover, plan)
        let options = try await shippingOptions(plan)
        guard options.contains(where: { $0.level == plan.shippingLevel }) else {
            let offered = options.map(\.level)
            throw OrderError(.rejected, "Lulu offers no \(plan.shippingLevel) shipping for this order to \(plan.address.countryCode)"
                             + (offered.isEmpty ? "" : "; it offers \(offered.joined(separator: ", ")) (--shipping)"))
        }
        let costs = try await costs(plan)
        return OrderQuote(environment: settings.environmentName, podPackageId: plan.package.description, product: plan.package.spoken,
                          interiorPages: plan.interiorPages, quantity: plan.quantity, cover: cover, shippingLevel: plan.shippingLevel,
                          shippingOptions: options, costs: costs)
    }

    /// Asks Lulu to validate a file and waits for its verdict.
    func validate(_ call: LuluCall, file: String, url: URL, readPath: (Int) -> String, done: Set<String>) async throws(OrderError) -> LuluWire.Validation {
        var v = try await client.request(call, as: LuluWire.Validation.self)
        let start = Date()
        while true {
            switch v.status {
            case "ERROR"?:
                let problems = (v.errors ?? []).joined(separator: "; ")
                throw OrderError(.rejected, "Lulu refused the \(file) PDF at \(url.shown): \(problems.isEmpty ? "no reason given" : problems); nothing was ordered")
            case let s? where done.contains(s):
                return v
            default:
                guard Date().timeIntervalSince(start) < settings.pollLimit else {
                    throw OrderError(.failed, "Lulu was still validating the \(file) PDF after \(Int(settings.pollLimit)) s (\(v.status ?? "not started")); nothing was ordered, try again later")
                }
                await client.pause(settings.pollInterval)
                v = try await client.request(.get(readPath(v.id), "the validation of the \(file) PDF"), as: LuluWire.Validation.self)
            }
        }
    }

    /// The print job with this reference, if Lulu has one.
    /// The print job with exactly this reference. Lulu's `search` matches parts of several fields
    /// and pages its answer, so every page is read until the job is found or the list ends: a
    /// match on a later page missed would place the order a second time.
    public func findPrintJob(externalID: String) async throws(OrderError) -> Int? {
        for page in 1...Self.lookUpPageLimit {
            let list = try await client.request(Self.findPrintJob(externalID, page: page), as: LuluWire.PrintJobList.self)
            if let job = list.results.first(where: { $0.external_id == externalID }) { return job.id }
            if list.next == nil || list.results.isEmpty { return nil }
        }
        throw OrderError(.rejected, "more than \(Self.lookUpPageLimit * Self.lookUpPageSize) of Lulu's print jobs match the reference "
                         + "\(externalID), too many to tell whether this order was placed before; give a longer, unique --external-id")
    }

    public struct Placed: Sendable {
        public var record: OrderRecord
        /// The print job was found by its reference, made by an earlier try: nothing new was ordered.
        public var reused: Bool
        /// Nil when an earlier try had placed the order: nothing was checked again.
        public var cover: CoverComparison?
    }

    /// Validates the files with Lulu, then places the print job once: an earlier one with the same
    /// reference is found and kept; a create that got no clear answer is looked up before it is
    /// sent again. `progress` is told the record at each step (it may write it down).
    /// `previous` is the record of an earlier try of this order, whose history the new one keeps.
    public func submit(_ plan: OrderPlan, externalID: String, interior: URL, cover coverURL: URL, contactEmail: String,
                       previous: OrderRecord? = nil,
                       progress: @Sendable (OrderRecord) throws(OrderError) -> Void) async throws(OrderError) -> Placed {
        var record = OrderRecord(environment: settings.environmentName, externalId: externalID, plan: plan, state: "validating")
        if let previous, previous.externalId == externalID, previous.environment == record.environment {
            record.history = previous.history
            record.costs = previous.costs
        }
        do throws(OrderError) {
            // An order already placed is not validated or paid for again.
            if let existing = try await findPrintJob(externalID: externalID) {
                return try await finish(&record, id: existing, reused: true, cover: nil, progress: progress)
            }
            let cover = try await checkCover(plan)
            try Self.requireMatch(cover, plan)
            try progress(record)
            let checked = try await validate(Self.validateInterior(interior, plan), file: "interior", url: interior,
                                             readPath: { "/validate-interior/\($0)/" }, done: ["VALIDATED", "NORMALIZED"])
            if let pages = checked.page_count?.value, pages != plan.interiorPages {
                throw OrderError(.rejected, "Lulu counts \(pages) pages in the interior PDF at \(interior.shown), "
                                 + "and the book lays out to \(plan.interiorPages) for lulu: it is not this book's interior as it is now "
                                 + "(export it again with --profile lulu); nothing was ordered")
            }
            _ = try await validate(Self.validateCover(coverURL, plan), file: "cover", url: coverURL,
                                   readPath: { "/validate-cover/\($0)/" }, done: ["NORMALIZED", "VALIDATED"])
            record.costs = try await costs(plan)
            record.state = "ordering"
            try progress(record)
            let id = try await create(plan, externalID: externalID, interior: interior, cover: coverURL, contactEmail: contactEmail)
            return try await finish(&record, id: id.id, reused: id.reused, cover: cover, progress: progress)
        } catch {
            record.state = "failed"
            record.error = error.message
            try? progress(record)
            throw error
        }
    }

    private func finish(_ record: inout OrderRecord, id: Int, reused: Bool, cover: CoverComparison?,
                        progress: @Sendable (OrderRecord) throws(OrderError) -> Void) async throws(OrderError) -> Placed {
        let job = try await printJob(id)
        record.printJobId = job.id
        record.orderId = job.order_id
        record.state = "placed"
        record.error = nil
        if record.costs == nil, let total = job.costs?.total_cost_incl_tax, let currency = job.costs?.currency {
            record.costs = OrderCosts(currency: currency, printing: total, tax: .zero, totalExcludingTax: total, total: total)
        }
        record.note(StatusEntry(name: job.status.name, message: job.status.message, changed: job.status.changed, source: reused ? "found" : "created"))
        try progress(record)
        return Placed(record: record, reused: reused, cover: cover)
    }

    /// Creates the print job, at most once for its reference.
    private func create(_ plan: OrderPlan, externalID: String, interior: URL, cover: URL, contactEmail: String) async throws(OrderError) -> (id: Int, reused: Bool) {
        let call = Self.createPrintJob(plan, externalID: externalID, interior: interior, cover: cover, contactEmail: contactEmail)
        var attempt = 0
        while true {
            attempt += 1
            do {
                return (try await client.request(call, as: LuluWire.PrintJob.self).id, false)
            } catch where error.mayHaveActed && attempt < settings.attempts {
                // The request reached Lulu and no clear answer came back: it may have made the job.
                if let made = try await findPrintJob(externalID: externalID) { return (made, true) }
                await client.pause(settings.retryDelay * pow(2, Double(attempt - 1)))
            }
        }
    }

    func printJob(_ id: Int) async throws(OrderError) -> LuluWire.PrintJob {
        try await client.request(.get("/print-jobs/\(id)/", "print job \(id)"), as: LuluWire.PrintJob.self)
    }

    /// The print job's status now, with its tracking where it has shipped.
    public func status(printJobId id: Int) async throws(OrderError) -> (entry: StatusEntry, tracking: [String]) {
        let job = try await printJob(id)
        let tracking = (job.line_items ?? []).flatMap { $0.tracking_urls ?? [] }
        return (StatusEntry(name: job.status.name, message: job.status.message, changed: job.status.changed, source: "status"), tracking)
    }
}
