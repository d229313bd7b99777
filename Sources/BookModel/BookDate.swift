import Foundation

/// The `created` date: ISO 8601, as `2024-05-01`, `2024-05-01T12:00:00Z` or with an offset
/// (`2024-05-01T14:00:00+02:00`) and optional fractional seconds. A time without a zone is UTC,
/// so a PDF's creation date does not depend on the machine that rendered it.
public enum BookDate {
    public static func parse(_ text: String) -> Date? {
        let s = Array(text.utf8)
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= s.count else { return nil }
            var v = 0
            for k in i..<(i + digits) {
                guard s[k] >= UInt8(ascii: "0"), s[k] <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(s[k] - UInt8(ascii: "0"))
            }
            i += digits
            return v
        }
        func take(_ c: Character) -> Bool {
            guard i < s.count, s[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offsetSeconds = 0
        if take("T") || take("t") || take(" ") {
            guard let h = number(2), take(":"), let m = number(2) else { return nil }
            hour = h; minute = m
            if take(":") {
                guard let sec = number(2) else { return nil }
                second = sec
                if take(".") {
                    let start = i
                    while i < s.count, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "9") { i += 1 }
                    guard i > start else { return nil }
                    fraction = Double("0." + String(decoding: s[start..<i], as: UTF8.self)) ?? 0
                }
            }
            if take("Z") || take("z") {
            } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
                let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
                i += 1
                guard let oh = number(2), take(":"), let om = number(2), oh < 24, om < 60 else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            }
        }
        guard i == s.count, (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        guard (1...CivilDate.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        let date = CivilDate.instant(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return date.addingTimeInterval(fraction - Double(offsetSeconds))
    }

    /// `2024-05-01T12:00:00Z`: whole seconds in UTC, the form importers write.
    public static func format(_ date: Date) -> String {
        let c = CivilDate.components(of: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }
}
