import Foundation

/// Proleptic Gregorian dates in UTC as plain arithmetic (H. Hinnant's `days_from_civil` and
/// `civil_from_days`). Foundation's `Calendar` gives the same answers but on first use looks up
/// the machine's time zone and loads ICU's zone data, several milliseconds of every run that
/// reads a book's `created` date.
public enum CivilDate {
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the date. A day past the month's end runs on into the next month,
    /// as `Calendar.date(from:)` does.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The instant of a UTC date and time (a second of 60 runs on into the next minute).
    public static func instant(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date {
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The UTC date and time of `date`, to the whole second below it.
    public static func components(of date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (dayCount, secondOfDay) = floorDivision(seconds, 86_400)
        let (y, m, d) = self.date(days: dayCount)
        return (y, m, d, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    private static func floorDivision(_ a: Int, _ b: Int) -> (Int, Int) {
        let r = a % b
        return r < 0 ? (a / b - 1, r + b) : (a / b, r)
    }
}
