import Foundation
import Testing
@testable import BookModel

/// The arithmetic against Foundation's Gregorian calendar in UTC, which it stands in for.
@Suite("Civil dates without Calendar")
struct CivilDateTests {
    private var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    @Test func everyFifthDayFrom1583To2600MatchesTheGregorianCalendar() {
        let calendar = utc
        var mismatches: [String] = []
        let first = CivilDate.days(year: 1583, month: 1, day: 1), last = CivilDate.days(year: 2600, month: 12, day: 31)
        for days in stride(from: first, through: last, by: 5) {
            let instant = Date(timeIntervalSince1970: TimeInterval(days) * 86_400 + 45_296)  // 12:34:56
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
            let mine = CivilDate.components(of: instant)
            if (mine.year, mine.month, mine.day, mine.hour, mine.minute, mine.second) != (c.year!, c.month!, c.day!, 12, 34, 56)
                || CivilDate.instant(year: c.year!, month: c.month!, day: c.day!, hour: 12, minute: 34, second: 56) != instant {
                mismatches.append("\(days): \(mine) vs \(c)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func monthLengthsAndLeapYears() {
        let calendar = utc
        for year in [1600, 1900, 2000, 2023, 2024, 2100] {
            for month in 1...12 {
                let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
                #expect(CivilDate.daysInMonth(year: year, month: month) == calendar.range(of: .day, in: .month, for: first)!.count,
                        "\(year)-\(month)")
            }
        }
        #expect(CivilDate.isLeapYear(2000) && CivilDate.isLeapYear(2024) && !CivilDate.isLeapYear(1900) && !CivilDate.isLeapYear(2023))
    }

    @Test func beforeTheEpochTheSecondsRoundDown() {
        let c = CivilDate.components(of: Date(timeIntervalSince1970: -0.5))
        #expect((c.year, c.month, c.day, c.hour, c.minute, c.second) == (1969, 12, 31, 23, 59, 59))
    }

    @Test func bookDatesParseAndFormatInUTC() {
        #expect(BookDate.parse("2024-05-01T14:00:00+02:00") == CivilDate.instant(year: 2024, month: 5, day: 1, hour: 12))
        #expect(BookDate.parse("2024-02-29") == CivilDate.instant(year: 2024, month: 2, day: 29))
        #expect(BookDate.parse("2023-02-29") == nil)
        #expect(BookDate.parse("2024-04-31T00:00:00Z") == nil)
        #expect(BookDate.parse("2024-05-01T12:00:00.250Z")?.timeIntervalSince1970 == 1_714_564_800.25)
        #expect(BookDate.format(Date(timeIntervalSince1970: 1_714_564_800.9)) == "2024-05-01T12:00:00Z")
        #expect(BookDate.format(BookDate.parse("1999-12-31T23:59:60Z")!) == "2000-01-01T00:00:00Z")
    }
}
