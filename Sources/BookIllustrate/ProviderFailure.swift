import Foundation
import BookHTTP

/// Why a call produced no picture, and whether trying again can help.
public struct ProviderFailure: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// 408, 429 rate limits, 5xx, timeouts and dropped connections.
        case retryable
        /// No connection could be made (refused, no route, unknown host, connect time-out): retried,
        /// but a run gives up after a few in a row.
        case unreachable
        /// No TLS connection could be made (the server speaks plain HTTP, its certificate is not
        /// trusted): no retry can mend it, so the run ends at once.
        case tlsFailed
        /// Moderation, safety blocks, a 200 without an image.
        case refused
        /// 401/403, Gemini's API_KEY_INVALID, a missing key.
        case badKey
        /// 402, 429 insufficient_quota.
        case noCredit
        /// Any other 4xx: the request itself is wrong.
        case invalid
    }
    public var kind: Kind
    public var reason: String
    /// The delay the provider asked for (retry-after-ms, Retry-After, retryDelay), in seconds.
    public var retryAfter: Double?
    /// Whether the request left this process: false when no connection was made or the request
    /// could not even be built. Only calls sent are counted as made.
    public var sent: Bool

    public init(_ kind: Kind, _ reason: String, retryAfter: Double? = nil, sent: Bool? = nil) {
        self.kind = kind; self.reason = reason; self.retryAfter = retryAfter
        self.sent = sent ?? (kind != .unreachable && kind != .tlsFailed)
    }

    public var isRetryable: Bool { kind == .retryable || kind == .unreachable }
    public var description: String { reason }
}

/// The provider's own error object: `{"error":{"message","type","code","status","details","metadata"}}`.
struct ProviderErrorBody {
    var message: String?
    var code: String?
    var status: String?
    var reasons: [String] = []
    var retryDelay: Double?
    /// OpenRouter's moderation marks: `metadata.flagged_input` or `metadata.reasons`.
    var flagged = false
    /// OpenRouter's spent budget: `metadata.limit_source`.
    var limitSource: String?

    init(_ data: Data) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let error = root["error"] as? [String: Any] else { return }
        message = error["message"] as? String
        if let c = error["code"] as? String { code = c } else if let c = error["code"] as? Int { code = String(c) }
        status = error["status"] as? String
        if let type = error["type"] as? String, code == nil { code = type }
        for detail in error["details"] as? [[String: Any]] ?? [] {
            if let r = detail["reason"] as? String { reasons.append(r) }
            if let d = detail["retryDelay"] as? String ?? detail["retry_delay"] as? String { retryDelay = RetryHint.duration(d) }
        }
        if let meta = error["metadata"] as? [String: Any] {
            if let r = meta["reasons"] as? [String] { reasons += r }
            flagged = meta["flagged_input"] != nil || meta["reasons"] != nil
            limitSource = meta["limit_source"] as? String
        }
    }

    var summary: String {
        var parts: [String] = []
        if let code { parts.append(code) }
        if let status, status != code { parts.append(status) }
        parts += reasons
        let head = parts.joined(separator: ", ")
        switch (head.isEmpty, message) {
        case (true, nil): return "no details"
        case (true, let m?): return m
        case (false, nil): return head
        case (false, let m?): return "\(head): \(m)"
        }
    }
}
