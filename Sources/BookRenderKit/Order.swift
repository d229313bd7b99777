import Foundation
import BookBase
import BookConfig
import BookLayout
import BookModel
import BookOrder

public typealias LuluSettings = BookOrder.LuluSettings
public typealias LuluClient = BookOrder.LuluClient
public typealias LuluOrdering = BookOrder.LuluOrdering
public typealias LuluWebhook = BookOrder.LuluWebhook
public typealias OrderPlan = BookOrder.OrderPlan
public typealias OrderQuote = BookOrder.OrderQuote
public typealias OrderRecord = BookOrder.OrderRecord
public typealias OrderCosts = BookOrder.OrderCosts
public typealias StatusEntry = BookOrder.StatusEntry
public typealias CoverComparison = BookOrder.CoverComparison
public typealias PodPackage = BookOrder.PodPackage
public typealias ProductChoice = BookOrder.ProductChoice
public typealias ShippingAddress = BookOrder.ShippingAddress
public typealias OrderError = BookOrder.OrderError
public typealias LuluDryRun = BookOrder.LuluDryRun

/// What an order of the book is made of, beside the printer's address and keys.
public struct OrderOptions: Sendable {
    public var settings: LuluSettings
    /// The product's parts (binding, colour, quality, paper, finish); the book decides the rest.
    public var product: ProductChoice
    /// The whole product code instead, as Lulu's price calculator gives it.
    public var podPackageId: String?
    public var quantity: Int
    public var shipTo: URL
    public var shippingLevel: String

    public init(settings: LuluSettings, product: ProductChoice = ProductChoice(), podPackageId: String? = nil, quantity: Int = 1,
                shipTo: URL, shippingLevel: String = "MAIL") {
        self.settings = settings; self.product = product; self.podPackageId = podPackageId; self.quantity = quantity
        self.shipTo = shipTo; self.shippingLevel = shippingLevel
    }
}

/// What `order submit` did.
public struct OrderSubmission: Sendable, Codable {
    public var record: OrderRecord
    /// Where the record was written (beside the book unless named).
    public var recordFile: String?
    /// The print job was made by an earlier try with the same reference: nothing new was ordered.
    public var reused: Bool
    public var cover: CoverComparison?
}

/// A print job's states as seen so far, newest last.
public struct OrderStatusReport: Sendable, Codable {
    public var printJobId: Int
    public var environment: String
    public var status: String
    public var history: [StatusEntry]
    public var tracking: [String]
    public var recordFile: String?
}

extension BookDocument {
    /// The book laid out for Lulu: its product code, page count and cover sheet, and the address
    /// read and checked. Nothing is sent.
    public func orderPlan(_ options: OrderOptions) throws(BookRenderError) -> OrderPlan {
        guard options.quantity >= 1 else { throw BookRenderError(.invalidOptions, "--quantity must be at least 1") }
        guard OrderPlan.shippingLevels.contains(options.shippingLevel) else {
            throw BookRenderError(.invalidOptions, "--shipping must be one of \(OrderPlan.shippingLevels.joined(separator: ", ")), not \(options.shippingLevel)")
        }
        let address = try Self.order { () throws(OrderError) in try ShippingAddress.read(options.shipTo) }
        let document = with { $0.profile = "lulu" }
        let (resolved, resources) = try document.resolveWithResources()
        guard let profile = resolved.profile else { throw BookRenderError(.invalidOptions, "no lulu print profile in templates/profiles") }
        if let problem = profile.trimProblem(resolved.trim.width, resolved.trim.height) {
            throw BookRenderError(.orderRejected, "\(file ?? book.title): \(problem)")
        }
        let package: PodPackage
        if let code = options.podPackageId {
            guard let parsed = PodPackage(code) else {
                throw BookRenderError(.invalidOptions, "--pod-package-id \(code) is not a Lulu product code (27 characters such as 0600X0900BWSTDPB060UW444MXX)")
            }
            package = parsed
        } else {
            let hasPictures = book.pages.contains { $0.picture != nil }
            package = try Self.order { () throws(OrderError) in
                try options.product.package(trimWidth: resolved.trim.width, trimHeight: resolved.trim.height,
                                            storybook: book.kind == .storybook, hasPictures: hasPictures)
            }
        }
        let binding: CoverBinding = package.isHardcover ? .hardcover : .paperback
        let paper = ["060UC444": "cream"][package.paper] ?? "white"
        let interiorPages = try BookRenderError.wrap {
            BookLayouter(typesetter: try document.typesetter(resolved, resources), textThreads: settings.workers).layout(resolved).pages.count
        }
        if let fewest = profile.pages.min, interiorPages < fewest {
            throw BookRenderError(.orderRejected, "\(file ?? book.title) lays out to \(interiorPages) pages for lulu, and Lulu prints at least \(fewest); "
                                  + "add pages to the book")
        }
        let info = try BookRenderError.wrap {
            try document.coverSheet(resolved, resources, paper: paper, binding: binding, interiorPages: interiorPages).info
        }
        return OrderPlan(title: book.title, package: package, interiorPages: info.interiorPages, coverWidth: info.mediaInches.width * 72,
                         coverHeight: info.mediaInches.height * 72, quantity: options.quantity, address: address,
                         shippingLevel: options.shippingLevel)
    }

    /// The order's reference when none is given: the same book, product, quantity, address and
    /// shipping always give the same one, so placing the order again finds it.
    public func orderReference(_ plan: OrderPlan) -> String {
        let content = file.flatMap { FileManager.default.contents(atPath: $0) }.map { SHA256.hex($0) } ?? SHA256.hex(book.title)
        return plan.externalID(bookContent: content)
    }

    /// `BOOK.order.json` beside the book.
    public var orderRecordFile: URL? {
        file.map { URL(fileURLWithPath: $0).deletingPathExtension().appendingPathExtension("order.json") }
    }

    static func order<T>(_ body: () throws(OrderError) -> T) throws(BookRenderError) -> T {
        do { return try body() } catch { throw BookRenderError(error) }
    }
}

/// Ordering printed copies from Lulu: quote, submit, status.
public enum Ordering {
    public static func quote(_ plan: OrderPlan, settings: LuluSettings) throws(BookRenderError) -> OrderQuote {
        try blocking { () async throws(OrderError) in
            try settings.check()
            return try await LuluOrdering(client: LuluClient(settings: settings)).quote(plan)
        }
    }

    /// Validates the files with Lulu and places the print job once for `externalID`; the record is
    /// written to `recordFile` before the print job is asked for and after each step.
    public static func submit(_ plan: OrderPlan, settings: LuluSettings, externalID: String, interior: URL, cover: URL,
                              contactEmail: String, recordFile: URL?) throws(BookRenderError) -> OrderSubmission {
        for (flag, url) in [("--interior-url", interior), ("--cover-url", cover)] {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                throw BookRenderError(.invalidOptions, "\(flag) \(url.absoluteString) is not an http(s) address Lulu can download from")
            }
        }
        let previous = recordFile.flatMap { FileManager.default.contents(atPath: $0.path) }.flatMap { try? JSONDecoder().decode(OrderRecord.self, from: $0) }
        let placed = try blocking { () async throws(OrderError) in
            try settings.check()
            return try await LuluOrdering(client: LuluClient(settings: settings))
                .submit(plan, externalID: externalID, interior: interior, cover: cover, contactEmail: contactEmail,
                        previous: previous) { (record: OrderRecord) throws(OrderError) in
                    guard let recordFile else { return }
                    do throws(BookRenderError) { try JSONOutput.write(record, to: recordFile) } catch {
                        throw OrderError(.rejected, "cannot write the order record: \(error.message); nothing more was ordered")
                    }
                }
        }
        return OrderSubmission(record: placed.record, recordFile: recordFile?.path, reused: placed.reused, cover: placed.cover)
    }

    /// The print job's status now. With a record file, the status joins the history kept there,
    /// which is written back.
    public static func status(printJobId: Int?, recordFile: URL?, settings: LuluSettings) throws(BookRenderError) -> OrderStatusReport {
        var record: OrderRecord?
        if let recordFile {
            guard let data = FileManager.default.contents(atPath: recordFile.path) else {
                throw BookRenderError(.unreadableInput, "cannot read the order record \(recordFile.path)")
            }
            do { record = try JSONDecoder().decode(OrderRecord.self, from: data) } catch {
                throw BookRenderError(.orderRejected, "\(recordFile.path) is not an order record bookrender wrote: \(error)")
            }
        }
        guard let id = printJobId ?? record?.printJobId else {
            throw BookRenderError(.orderRejected, "\(recordFile?.path ?? "the order") has no print job yet (its state is \(record?.state ?? "unknown")); "
                                  + "run `bookrender order submit` again to place it")
        }
        let (entry, tracking) = try blocking { () async throws(OrderError) in
            try settings.check()
            return try await LuluOrdering(client: LuluClient(settings: settings)).status(printJobId: id)
        }
        var history = record?.history ?? []
        if var r = record {
            r.note(entry)
            history = r.history
            if r != record, let recordFile { try JSONOutput.write(r, to: recordFile) }
        } else {
            history = [entry]
        }
        return OrderStatusReport(printJobId: id, environment: settings.environmentName, status: entry.name, history: history,
                                 tracking: tracking, recordFile: recordFile?.path)
    }

    /// Runs the async order steps for a caller that waits (the command line).
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws(OrderError) -> T) throws(BookRenderError) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(OrderError) { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        switch box.result! {
        case .success(let v): return v
        case .failure(let e): throw BookRenderError(e)
        }
    }

    private final class Box<T>: @unchecked Sendable { var result: Result<T, OrderError>? }
}
