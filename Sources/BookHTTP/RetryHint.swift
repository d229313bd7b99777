import Foundation

/// Reads the delay a provider asks for before the next try.
public enum RetryHint {
    /// OpenAI's SDK order: `retry-after-ms`, then `retry-after` (seconds or an HTTP date).
    public static func fromHeaders(_ headers: [String: String], now: Date = Date()) -> Double? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), ms >= 0 {
            return ms / 1000
        }
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = f.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        return nil
    }

    /// Gemini's protobuf Duration as JSON: "37s", "0.5s", "1.250s".
    public static func duration(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasSuffix("s"), let v = Double(t.dropLast()), v >= 0 else { return nil }
        return v
    }
}

