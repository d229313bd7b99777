import Foundation
import BookBase

/// What is ordered: the product, the book's page count and its cover sheet as bookrender lays
/// them out, how many, where to and how fast.
public struct OrderPlan: Sendable {
    public var title: String
    public var package: PodPackage
    public var interiorPages: Int
    /// The cover PDF's page in points, bleed (a hardcover's wrap) included.
    public var coverWidth: Double
    public var coverHeight: Double
    public var quantity: Int
    public var address: ShippingAddress
    /// MAIL, PRIORITY_MAIL, GROUND_HD, GROUND_BUS, GROUND, EXPEDITED or EXPRESS.
    public var shippingLevel: String

    public static let shippingLevels = ["MAIL", "PRIORITY_MAIL", "GROUND_HD", "GROUND_BUS", "GROUND", "EXPEDITED", "EXPRESS"]

    public init(title: String, package: PodPackage, interiorPages: Int, coverWidth: Double, coverHeight: Double, quantity: Int,
                address: ShippingAddress, shippingLevel: String) {
        self.title = title; self.package = package; self.interiorPages = interiorPages; self.coverWidth = coverWidth
        self.coverHeight = coverHeight; self.quantity = quantity; self.address = address; self.shippingLevel = shippingLevel
    }

    var lineItem: LuluWire.LineItemSpec {
        .init(page_count: interiorPages, pod_package_id: package.description, quantity: quantity)
    }

    /// The same order always gets the same reference, so placing it again finds the print job
    /// the first time made instead of making a second: the book's content, the product, page count,
    /// quantity, address and shipping level. Another order of the same books needs its own
    /// reference (`--external-id`).
    public func externalID(bookContent: String) -> String {
        let address = String(decoding: LuluCall.encode(self.address), as: UTF8.self)
        let key = [bookContent, package.description, "\(interiorPages)", "\(quantity)", address, shippingLevel].joined(separator: "\n")
        return "bookrender-" + String(SHA256.hex(key).prefix(24))
    }
}

/// The cover sheet bookrender makes against the one the printer computes for the product and page count.
public struct CoverComparison: Sendable, Codable, Equatable {
    /// Points, bleed (wrap) included.
    public var ourWidth: Double
    public var ourHeight: Double
    public var printerWidth: Double
    public var printerHeight: Double
    public var matches: Bool

    /// Lulu gives its sizes to whole points in its own example (920.000 × 666.000 pt for a 6 × 9 in
    /// paperback of 210 pages, whose spine by its formula makes 920.38): a point either way is the same sheet.
    public static let tolerance = 1.0
}

/// One way the books can travel.
public struct ShippingChoice: Sendable, Codable, Equatable {
    public var level: String
    public var cost: Money?
    public var currency: String?
    public var arrivalEarliest: String?
    public var arrivalLatest: String?
    public var traceable: Bool?
}

/// What Lulu's cost calculation says the order costs, as decimal strings.
public struct OrderCosts: Sendable, Codable, Equatable {
    public var currency: String
    /// Per copy, before discounts.
    public var unitCost: Money?
    /// The books, discounts applied, tax included.
    public var printing: Money
    public var shipping: Money?
    public var fulfillment: Money?
    public var fees: Money?
    public var tax: Money
    public var totalExcludingTax: Money
    public var total: Money
}

public struct OrderQuote: Sendable, Codable {
    public var environment: String
    public var podPackageId: String
    public var product: String
    public var interiorPages: Int
    public var quantity: Int
    public var cover: CoverComparison
    public var shippingLevel: String
    public var shippingOptions: [ShippingChoice]
    public var costs: OrderCosts
}

/// A status the print job was seen in, and where it was seen (created, status, webhook).
public struct StatusEntry: Sendable, Codable, Equatable {
    public var name: String
    public var message: String?
    /// When Lulu says the status changed (ISO 8601).
    public var changed: String?
    public var source: String
}

/// An order as kept beside the book (`BOOK.order.json`) or in a served job's folder: the reference
/// that makes placing it again safe, the print job once it exists, and each status it was seen in.
public struct OrderRecord: Sendable, Codable, Equatable {
    public var version = 1
    public var environment: String
    public var externalId: String
    /// Nil until the product is known (a served job's cover is rendered first).
    public var podPackageId: String?
    public var quantity: Int
    public var interiorPages: Int?
    public var shippingLevel: String
    /// This side's step: rendering (a served job's cover), validating (the files, with Lulu),
    /// ordering, placed, failed.
    public var state: String
    public var printJobId: Int?
    public var orderId: String?
    public var costs: OrderCosts?
    public var history: [StatusEntry] = []
    public var error: String?

    public init(environment: String, externalId: String, plan: OrderPlan, state: String) {
        self.init(environment: environment, externalId: externalId, podPackageId: plan.package.description, quantity: plan.quantity,
                  interiorPages: plan.interiorPages, shippingLevel: plan.shippingLevel, state: state)
    }

    public init(environment: String, externalId: String, podPackageId: String?, quantity: Int, interiorPages: Int?,
                shippingLevel: String, state: String) {
        self.environment = environment; self.externalId = externalId; self.podPackageId = podPackageId
        self.quantity = quantity; self.interiorPages = interiorPages; self.shippingLevel = shippingLevel; self.state = state
    }

    /// On its way to Lulu: neither placed nor given up.
    public var inProgress: Bool { ["rendering", "validating", "ordering"].contains(state) }

    /// Adds `entry` unless it is the status last seen.
    public mutating func note(_ entry: StatusEntry) {
        if let last = history.last, last.name == entry.name, last.changed == entry.changed { return }
        history.append(entry)
    }

    public var status: String? { history.last?.name }
}

extension URL {
    /// The address without its query: a signed address's signature is a credential for a while.
    var shown: String {
        guard var c = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return absoluteString }
        let signed = c.query != nil
        c.query = nil
        c.user = nil
        c.password = nil
        return (c.string ?? absoluteString) + (signed ? "?…" : "")
    }
}
