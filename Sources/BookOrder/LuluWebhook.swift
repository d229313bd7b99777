import Foundation
import BookBase

/// A webhook Lulu sent: PRINT_JOB_STATUS_CHANGED with the print job. Lulu signs the raw body with
/// HMAC-SHA256 under the API secret and sends it in `Lulu-HMAC-SHA256`; its documentation does not
/// say how the digest is written, so hex (as most receivers read it) and base64 are both taken.
public struct LuluWebhook: Sendable {
    public static let signatureHeader = "Lulu-HMAC-SHA256"
    public static let statusTopic = "PRINT_JOB_STATUS_CHANGED"

    public var topic: String
    public var printJobId: Int
    public var externalId: String?
    public var status: StatusEntry

    /// Whether `signature` is the body's HMAC under `secret`.
    public static func verify(body: Data, signature: String?, secret: Data) -> Bool {
        guard let given = signature?.trimmingCharacters(in: .whitespaces), !given.isEmpty, !secret.isEmpty else { return false }
        let mac = HMAC.sha256(key: secret, message: body)
        let hex = Data(mac.map { String(format: "%02x", $0) }.joined().utf8)
        return HMAC.same(Data(given.lowercased().utf8), hex) || HMAC.same(Data(given.utf8), Data(mac.base64EncodedString().utf8))
    }

    /// Reads a verified body.
    public static func parse(_ body: Data) throws(OrderError) -> LuluWebhook {
        let hook: LuluWire.Webhook
        do { hook = try JSONDecoder().decode(LuluWire.Webhook.self, from: body) } catch {
            throw OrderError(.rejected, "not a Lulu webhook (\(LuluClient.describe(error))): {\"topic\": \"\(statusTopic)\", \"data\": {print job}}")
        }
        return LuluWebhook(topic: hook.topic, printJobId: hook.data.id, externalId: hook.data.external_id,
                           status: StatusEntry(name: hook.data.status.name, message: hook.data.status.message,
                                               changed: hook.data.status.changed, source: "webhook"))
    }
}
