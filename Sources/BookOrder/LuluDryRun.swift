import Foundation

/// `--dry-run`: the requests the order would send, in order, with what they carry; nothing is sent
/// and no key is needed. Where a call's address depends on an earlier answer it says so.
public enum LuluDryRun {
    public static func quote(_ plan: OrderPlan, settings: LuluSettings) -> [String] {
        lines([token(settings), LuluOrdering.coverDimensions(plan), LuluOrdering.shippingOptions(plan), LuluOrdering.costCalculation(plan)],
              settings)
            + ["", "then: the cover sheet (\(size(plan.coverWidth, plan.coverHeight))) is compared with Lulu's answer; nothing was sent"]
    }

    public static func submit(_ plan: OrderPlan, externalID: String, interior: URL, cover: URL, contactEmail: String,
                              settings: LuluSettings) -> [String] {
        let calls: [LuluCall] = [
            token(settings), LuluOrdering.findPrintJob(externalID), LuluOrdering.coverDimensions(plan),
            LuluOrdering.validateInterior(interior, plan), .get("/validate-interior/{id}/", "(until VALIDATED, NORMALIZED or ERROR)"),
            LuluOrdering.validateCover(cover, plan), .get("/validate-cover/{id}/", "(until NORMALIZED or ERROR)"),
            LuluOrdering.costCalculation(plan),
            LuluOrdering.createPrintJob(plan, externalID: externalID, interior: interior, cover: cover, contactEmail: contactEmail),
        ]
        return lines(calls, settings) + ["", "external_id \(externalID): a print job with it already is kept, not ordered again; nothing was sent"]
    }

    static func token(_ settings: LuluSettings) -> LuluCall {
        LuluCall(method: "POST", path: LuluSettings.tokenPath, body: Data("grant_type=client_credentials".utf8),
                 what: "a token", repeatable: true)
    }

    static func lines(_ calls: [LuluCall], _ settings: LuluSettings) -> [String] {
        var out: [String] = []
        for call in calls {
            let url = (try? settings.url(call.path, query: call.query).absoluteString) ?? settings.baseURL + call.path
            out.append("\(call.method) \(url)\(call.what.hasPrefix("(") ? "  " + call.what : "")")
            if call.path == LuluSettings.tokenPath {
                out.append("  Authorization: Basic [base64 of \(LuluSettings.keyVariable):\(LuluSettings.secretVariable)]")
                out.append("  Content-Type: application/x-www-form-urlencoded")
            } else {
                out.append("  Authorization: Bearer [the token]")
                if call.body != nil { out.append("  Content-Type: application/json") }
            }
            if let body = call.body { out.append("  " + String(decoding: body, as: UTF8.self)) }
        }
        return out
    }

    static func size(_ w: Double, _ h: Double) -> String { String(format: "%.2f × %.2f pt", w, h) }
}
