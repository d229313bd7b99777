import Foundation
import BookRenderKit

/// `POST /v1/jobs/ID/order`'s body: where the books go and what is made, as `bookrender order`
/// takes it on the command line.
struct OrderRequest: Sendable {
    var address: ShippingAddress
    var quantity = 1
    var shipping = "MAIL"
    var product = ProductChoice()
    var podPackageId: String?
    var externalId: String?
    var contactEmail: String?

    static let fields = ["shipTo", "quantity", "shipping", "binding", "color", "quality", "paper", "finish", "podPackageId",
                         "externalId", "contactEmail"]

    static func parse(_ data: Data) throws(APIError) -> OrderRequest {
        guard let o = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw APIError(400, "invalidOrder", #"the body must be a JSON object: {"shipTo": {Lulu's shipping_address}, "quantity": 1, "shipping": "MAIL", …}"#)
        }
        if let unknown = o.keys.sorted().first(where: { !fields.contains($0) }) {
            throw APIError(400, "invalidOrder", "\(unknown): not an order field (\(fields.joined(separator: ", ")))")
        }
        guard let shipTo = o["shipTo"] as? [String: Any], let shipData = try? JSONSerialization.data(withJSONObject: shipTo) else {
            throw APIError(400, "invalidOrder", "shipTo: missing; give the address in the shape of Lulu's shipping_address")
        }
        var r: OrderRequest
        do { r = OrderRequest(address: try ShippingAddress.parse(shipData, file: "shipTo")) } catch {
            throw APIError(400, "invalidOrder", error.message)
        }
        func text(_ key: String, _ allowed: [String]? = nil) throws(APIError) -> String? {
            guard let v = o[key], !(v is NSNull) else { return nil }
            guard let s = v as? String, !s.isEmpty else { throw APIError(400, "invalidOrder", "\(key): must be a string") }
            if let allowed, !allowed.contains(s) { throw APIError(400, "invalidOrder", "\(key): must be one of \(allowed.joined(separator: ", ")), not \(s)") }
            return s
        }
        if let q = o["quantity"] {
            guard let n = q as? Int, !(q is Bool), (1...100_000).contains(n) else {
                throw APIError(400, "invalidOrder", "quantity: must be a whole number from 1")
            }
            r.quantity = n
        }
        r.shipping = try text("shipping", OrderPlan.shippingLevels) ?? "MAIL"
        r.product.binding = try text("binding", ["paperback", "hardcover"]) ?? "paperback"
        r.product.colour = try text("color", ProductChoice.Colour.allCases.map(\.rawValue)).flatMap(ProductChoice.Colour.init(rawValue:))
        r.product.quality = try text("quality", ProductChoice.Quality.allCases.map(\.rawValue)).flatMap(ProductChoice.Quality.init(rawValue:))
        r.product.paper = try text("paper", ["white", "cream", "color"])
        r.product.finish = try text("finish", ProductChoice.Finish.allCases.map(\.rawValue)).flatMap(ProductChoice.Finish.init(rawValue:))
        r.podPackageId = try text("podPackageId")
        if let code = r.podPackageId, PodPackage(code) == nil {
            throw APIError(400, "invalidOrder", "podPackageId: \(code) is not a Lulu product code (27 characters such as 0600X0900BWSTDPB060UW444MXX)")
        }
        r.externalId = try text("externalId")
        if let id = r.externalId, id.count > 64 || id.contains(where: \.isWhitespace) {
            throw APIError(400, "invalidOrder", "externalId: 1 to 64 characters without spaces")
        }
        r.contactEmail = try text("contactEmail")
        guard r.contactEmail ?? r.address.email != nil else {
            throw APIError(400, "invalidOrder", "contactEmail: Lulu needs an email for questions about the print job; give contactEmail or shipTo.email")
        }
        return r
    }
}
