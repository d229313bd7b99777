import Foundation

/// The `created` date: ISO 8601, as `2024-05-01`, `2024-05-01T12:00:00Z` or with an offset
/// (`2024-05-01T14:00:00+02:00`) and optional fractional seconds. A time without a zone is UTC,
/// so a PDF's creation date does not depend on the machine that rendered it.
public enum BookDate {
    public static func parse(_ text: String) -> Date? {
        var scan = DigitScanner(text)
        guard let year = scan.number(4), scan.take("-"), let month = scan.number(2), scan.take("-"),
              let day = scan.number(2) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offsetSeconds = 0
        if scan.take("T") || scan.take("t") || scan.take(" ") {
            guard let h = scan.number(2), scan.take(":"), let m = scan.number(2) else { return nil }
            hour = h; minute = m
            if scan.take(":") {
                guard let sec = scan.number(2) else { return nil }
                second = sec
                if scan.take(".") {
                    let digits = scan.digits()
                    guard !digits.isEmpty else { return nil }
                    fraction = Double("0." + digits) ?? 0
                }
            }
            if scan.take("Z") || scan.take("z") {
            } else if let sign = scan.take("+") ? 1 : scan.take("-") ? -1 : nil {
                guard let oh = scan.number(2), scan.take(":"), let om = scan.number(2), oh < 24, om < 60 else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            }
        }
        guard scan.atEnd, (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
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
