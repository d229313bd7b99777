import ArgumentParser
import Foundation
import BookRenderKit

struct Order: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Order printed copies from Lulu's Print API: price the book, check its files with the printer, place the order, follow it.",
        discussion: """
        Keys come from LULU_CLIENT_KEY and LULU_CLIENT_SECRET (the sandbox's unless --production); they go only \
        to Lulu's own address, over https (or plain http to this machine), and are never printed or written. \
        The token they buy is kept in memory only. Exit 65 when Lulu refuses the order or its files, or the \
        cover does not fit (nothing is ordered); 70 when Lulu cannot be reached or refuses the keys; docs/ordering.md \
        has the whole flow. \(ExitCodes.pointer)
        """,
        subcommands: [QuoteOrder.self, SubmitOrder.self, TrackOrder.self])
}

/// Where the printer is: the sandbox, production, or another address (a proxy, a test server).
struct LuluFlags: ParsableArguments {
    @Flag(name: .long, help: "Lulu's production API (https://api.lulu.com): real books, real charges. Default: the sandbox (https://api.sandbox.lulu.com).")
    var production = false

    @Option(name: .long, help: "Everything before the API path instead (scheme, host, port): a proxy or a test server; keys go only over https or to this machine.")
    var baseURL: String?

    @Option(name: .long, help: "Seconds to wait for one call.")
    var timeout: Double = 60

    func validate() throws {
        if production, baseURL != nil { throw ValidationError("--production and --base-url both say where Lulu is; give one") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    var settings: LuluSettings {
        let env = ProcessInfo.processInfo.environment
        var s = LuluSettings.fromEnvironment(env, production: production, baseURL: baseURL)
        s.timeout = timeout
        // Lets tests go through retries and validation polls without waiting seconds.
        if let v = env["BOOKRENDER_ORDER_POLL"].flatMap(Double.init) { s.pollInterval = v }
        if let v = env["BOOKRENDER_RETRY_BASE"].flatMap(Double.init) { s.retryDelay = v }
        return s
    }
}

/// What is ordered: the book's product and how many go where.
struct OrderFlags: ParsableArguments {
    @Argument(help: "The book: bookrender's book.json, or an app's file.")
    var book: String

    @Option(name: .long, help: "The print profile; Lulu's is lulu.")
    var profile = "lulu"

    @Option(name: .long, help: "Copies.")
    var quantity = 1

    @Option(name: .customLong("ship-to"), help: "The address, a JSON file in the shape of Lulu's shipping_address (name, street1, city, state_code, postcode, country_code, phone_number, email).")
    var shipTo: String

    @Option(name: .long, help: "MAIL, PRIORITY_MAIL, GROUND_HD, GROUND_BUS, GROUND, EXPEDITED or EXPRESS.")
    var shipping = "MAIL"

    @Option(name: .long, help: "paperback (perfect bound) or hardcover (casewrap).")
    var binding = "paperback"

    @Option(name: .long, help: "Interior ink: color or bw (default: color for a storybook or a book with pictures).")
    var color: String?

    @Option(name: .long, help: "standard or premium (default: premium for a storybook).")
    var quality: String?

    @Option(name: .long, help: "white, cream or color (coated, for colour pictures; the default with colour).")
    var paper: String?

    @Option(name: .long, help: "Cover finish: gloss or matte (default: gloss for a storybook).")
    var finish: String?

    @Option(name: .customLong("pod-package-id"), help: "The whole product code instead of the flags above, e.g. 0850X0850FCPRECW080CW444GXX.")
    var podPackageId: String?

    @OptionGroup var lulu: LuluFlags

    func validate() throws {
        guard profile == "lulu" else { throw ValidationError("--profile: bookrender orders from Lulu only; use --profile lulu") }
        guard quantity >= 1 else { throw ValidationError("--quantity must be at least 1") }
        guard OrderPlan.shippingLevels.contains(shipping) else {
            throw ValidationError("--shipping must be one of \(OrderPlan.shippingLevels.joined(separator: ", "))")
        }
        guard ["paperback", "hardcover"].contains(binding) else { throw ValidationError("--binding must be paperback or hardcover") }
        if let color, ProductChoice.Colour(rawValue: color) == nil { throw ValidationError("--color must be color or bw") }
        if let quality, ProductChoice.Quality(rawValue: quality) == nil { throw ValidationError("--quality must be standard or premium") }
        if let finish, ProductChoice.Finish(rawValue: finish) == nil { throw ValidationError("--finish must be gloss or matte") }
        if let paper, !["white", "cream", "color"].contains(paper) { throw ValidationError("--paper must be white, cream or color") }
        if podPackageId != nil, color != nil || quality != nil || paper != nil || finish != nil || binding != "paperback" {
            throw ValidationError("--pod-package-id names the whole product; leave out --binding, --color, --quality, --paper and --finish")
        }
    }

    func plan() throws(BookRenderError) -> (BookDocument, OrderPlan) {
        var product = ProductChoice()
        product.binding = binding
        product.colour = color.flatMap(ProductChoice.Colour.init(rawValue:))
        product.quality = quality.flatMap(ProductChoice.Quality.init(rawValue:))
        product.paper = paper
        product.finish = finish.flatMap(ProductChoice.Finish.init(rawValue:))
        let document = try BookDocument.open(URL(fileURLWithPath: book), settings: RenderSettings(profile: profile))
        let options = OrderOptions(settings: lulu.settings, product: product, podPackageId: podPackageId, quantity: quantity,
                                   shipTo: URL(fileURLWithPath: shipTo), shippingLevel: shipping)
        return (document, try document.orderPlan(options))
    }
}

struct QuoteOrder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quote",
        abstract: "The product code, the cover size Lulu expects against bookrender's, the shipping options and the total cost.",
        discussion: ExitCodes.pointer)

    @OptionGroup var order: OrderFlags

    @Flag(name: .long, help: "Print the requests the quote would send; send nothing.")
    var dryRun = false

    @OptionGroup var jsonFlags: JSONFlags

    func run() throws {
        let result = ResultOutput(command: "order", json: jsonFlags.json)
        do throws(BookRenderError) {
            let (_, plan) = try order.plan()
            if dryRun {
                let lines = LuluDryRun.quote(plan, settings: order.lulu.settings)
                if jsonFlags.json { try result.emit(DryRunBody(requests: lines)) } else { lines.forEach(Console.out) }
                return
            }
            let quote = try Ordering.quote(plan, settings: order.lulu.settings)
            if jsonFlags.json { try result.emit(QuoteBody(quote)); return }
            Console.out("product \(quote.podPackageId): \(quote.product), \(quote.interiorPages) pages, \(quote.quantity) \(quote.quantity == 1 ? "copy" : "copies")")
            Console.out(String(format: "cover %.2f × %.2f pt, as Lulu computes it (%.2f × %.2f pt)", quote.cover.ourWidth, quote.cover.ourHeight,
                               quote.cover.printerWidth, quote.cover.printerHeight))
            for o in quote.shippingOptions {
                Console.out("shipping \(o.level): \(o.cost.map { "\($0) \(o.currency ?? quote.costs.currency)" } ?? "price on the order")"
                            + (o.arrivalLatest.map { ", arrives by \($0)" } ?? "") + (o.level == quote.shippingLevel ? "  (chosen)" : ""))
            }
            let c = quote.costs
            Console.out("books \(c.printing), shipping \(c.shipping.map(\.description) ?? "–"), tax \(c.tax): total \(c.total) \(c.currency) (\(quote.environment))")
        } catch {
            throw result.fail(error)
        }
    }
}

struct SubmitOrder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Have Lulu validate the interior and cover PDFs at their addresses, then place the print job, once.",
        discussion: """
        Nothing is uploaded: Lulu downloads the PDFs from --interior-url and --cover-url (from `bookrender export \
        --profile lulu` and `bookrender cover --profile lulu`, put where Lulu can fetch them). The order's reference \
        (Lulu's external_id) is the same for the same book, product, quantity, address and shipping, so a retry finds \
        the print job already placed instead of placing another; --external-id gives your own. The record \
        (BOOK.order.json beside the book, or --record) keeps the reference, the print job and its statuses. \
        \(ExitCodes.pointer)
        """)

    @OptionGroup var order: OrderFlags

    @Option(name: .customLong("interior-url"), help: "Where Lulu downloads the interior PDF.")
    var interiorURL: String

    @Option(name: .customLong("cover-url"), help: "Where Lulu downloads the cover PDF.")
    var coverURL: String

    @Option(name: .customLong("external-id"), help: "The order's reference at Lulu (default: derived from the book and the order).")
    var externalId: String?

    @Option(name: .customLong("contact-email"), help: "Whom Lulu asks about the print job (default: the address's email).")
    var contactEmail: String?

    @Option(name: .long, help: "The order record to keep (default: BOOK.order.json beside the book).")
    var record: String?

    @Flag(name: .long, help: "Print the requests the order would send; send nothing.")
    var dryRun = false

    @OptionGroup var jsonFlags: JSONFlags

    func validate() throws {
        if let externalId, externalId.isEmpty || externalId.count > 64 || externalId.contains(where: { $0.isWhitespace }) {
            throw ValidationError("--external-id must be 1 to 64 characters without spaces")
        }
    }

    func run() throws {
        let result = ResultOutput(command: "order", json: jsonFlags.json)
        do throws(BookRenderError) {
            let (document, plan) = try order.plan()
            guard let interior = URL(string: interiorURL), let cover = URL(string: coverURL) else {
                throw BookRenderError(.invalidOptions, "--interior-url and --cover-url must be addresses")
            }
            guard let email = contactEmail ?? plan.address.email else {
                throw BookRenderError(.invalidOptions, "Lulu needs a contact email for the print job: give --contact-email, or an email in \(order.shipTo)")
            }
            let reference = externalId ?? document.orderReference(plan)
            if dryRun {
                let lines = LuluDryRun.submit(plan, externalID: reference, interior: interior, cover: cover, contactEmail: email,
                                              settings: order.lulu.settings)
                if jsonFlags.json { try result.emit(DryRunBody(requests: lines)) } else { lines.forEach(Console.out) }
                return
            }
            let recordFile = record.map { URL(fileURLWithPath: $0) } ?? document.orderRecordFile
            let placed = try Ordering.submit(plan, settings: order.lulu.settings, externalID: reference, interior: interior, cover: cover,
                                             contactEmail: email, recordFile: recordFile)
            if jsonFlags.json { try result.emit(SubmitBody(placed)); return }
            let r = placed.record
            Console.out((placed.reused ? "already placed: " : "placed: ") + "print job \(r.printJobId ?? 0) (\(r.environment)), external_id \(r.externalId), "
                        + "status \(r.status ?? "unknown")" + (r.costs.map { ", total \($0.total) \($0.currency)" } ?? ""))
            if let file = placed.recordFile { Console.out("record: \(file)") }
        } catch {
            throw result.fail(error)
        }
    }
}

struct TrackOrder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "A print job's status and the statuses it was seen in before.",
        discussion: "ORDER is an order record (BOOK.order.json, whose history the new status joins) or a print job's id. \(ExitCodes.pointer)")

    @Argument(help: "An order record file, or Lulu's print job id.")
    var order: String

    @OptionGroup var lulu: LuluFlags

    @OptionGroup var jsonFlags: JSONFlags

    func run() throws {
        let result = ResultOutput(command: "order", json: jsonFlags.json)
        do throws(BookRenderError) {
            let id = Int(order)
            let report = try Ordering.status(printJobId: id, recordFile: id == nil ? URL(fileURLWithPath: order) : nil, settings: lulu.settings)
            if jsonFlags.json { try result.emit(StatusBody(report)); return }
            Console.out("print job \(report.printJobId) (\(report.environment)): \(report.status)")
            for e in report.history {
                Console.out("  \(e.changed ?? "-")  \(e.name)\(e.message.map { ": \($0)" } ?? "")  (\(e.source))")
            }
            for t in report.tracking { Console.out("  tracking: \(t)") }
        } catch {
            throw result.fail(error)
        }
    }
}

/// `order … --json`: each body beside the report's version, command and producer, with findings
/// (none: an order's problems are its error).
struct QuoteBody: Encodable {
    var quote: OrderQuote
    var findings: [Diagnostic] = []
    init(_ q: OrderQuote) { quote = q }
    private enum Keys: String, CodingKey { case step, findings }
    func encode(to encoder: any Encoder) throws {
        try quote.encode(to: encoder)
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("quote", forKey: .step)
        try c.encode(findings, forKey: .findings)
    }
}

struct SubmitBody: Encodable {
    var step = "submit"
    var order: OrderRecord
    var recordFile: String?
    var reused: Bool
    var cover: CoverComparison?
    var findings: [Diagnostic] = []
    init(_ s: OrderSubmission) { order = s.record; recordFile = s.recordFile; reused = s.reused; cover = s.cover }
}

struct StatusBody: Encodable {
    var step = "status"
    var printJobId: Int
    var environment: String
    var status: String
    var history: [StatusEntry]
    var tracking: [String]
    var recordFile: String?
    var findings: [Diagnostic] = []
    init(_ r: OrderStatusReport) {
        printJobId = r.printJobId; environment = r.environment; status = r.status; history = r.history; tracking = r.tracking
        recordFile = r.recordFile
    }
}

struct DryRunBody: Encodable {
    var step = "dryRun"
    var requests: [String]
    var findings: [Diagnostic] = []
}
