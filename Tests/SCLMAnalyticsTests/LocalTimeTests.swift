import Foundation
import SCLMAnalytics
import SCLMCore
import SCLMTestSupport
import Testing

@Suite(.tags(.small)) struct LocalTimeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let utc: String
        let hours: Int64
        let zone: String
        let local: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "row zone east of UTC", utc: "2026-03-01T22:15:02.123Z", hours: 3, zone: "UTC",
            local: "2026-03-02T01:15:02.1230000"),
        Case(
            name: "row zone west of UTC", utc: "2026-03-01T02:00:00.000Z", hours: -5, zone: "UTC",
            local: "2026-02-28T21:00:00.0000000"),
        Case(
            name: "machine in the row's half-hour zone keeps the half hour", utc: "2026-03-01T09:00:00.500Z",
            hours: 5, zone: "Asia/Kolkata", local: "2026-03-01T14:30:00.5000000"),
        Case(
            name: "machine in another zone uses the row's hours", utc: "2026-03-01T09:00:00.000Z", hours: 1,
            zone: "Asia/Kolkata", local: "2026-03-01T10:00:00.0000000"),
        Case(
            name: "daylight saving time of the machine's zone", utc: "2026-07-01T12:00:00.999Z", hours: 2,
            zone: "Europe/Berlin", local: "2026-07-01T14:00:00.9990000"),
        Case(
            name: "across a leap day", utc: "2024-02-28T23:59:59.999Z", hours: 1, zone: "UTC",
            local: "2024-02-29T00:59:59.9990000"),
        Case(
            name: "into a new year", utc: "2025-12-31T22:30:00.000Z", hours: 3, zone: "UTC",
            local: "2026-01-01T01:30:00.0000000"),
        Case(
            name: "2100 is no leap year", utc: "2100-02-28T23:00:00.000Z", hours: 2, zone: "UTC",
            local: "2100-03-01T01:00:00.0000000"),
        Case(
            name: "before 1970", utc: "1969-12-31T23:59:59.250Z", hours: 0, zone: "UTC",
            local: "1969-12-31T23:59:59.2500000"),
    ]

    @Test(arguments: cases)
    func formatsSevenFractionDigitsWithoutZone(_ example: Case) throws {
        let date = try #require(Timestamp.date(from: example.utc))
        let zone = try #require(TimeZone(identifier: example.zone))
        #expect(LocalTime.string(for: date, timeZoneHours: example.hours, zone: zone) == example.local)
    }

    @Test func agreesWithFoundationsCalendarOverManyInstants() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<Soak.iterations(500, soak: 200_000) {
            let milliseconds = Int64.random(in: -2_000_000_000_000...5_000_000_000_000, using: &generator)
            let hours = Int64.random(in: -11...13, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let shifted = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second], from: date.addingTimeInterval(Double(hours * 3600)))
            let fraction = ((milliseconds % 1000) + 1000) % 1000
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03lld0000", shifted.year ?? 0, shifted.month ?? 0,
                shifted.day ?? 0, shifted.hour ?? 0, shifted.minute ?? 0, shifted.second ?? 0, fraction)
            let utc = try #require(TimeZone(identifier: "UTC"))
            #expect(
                LocalTime.string(for: date, timeZoneHours: hours, zone: utc) == expected, "\(milliseconds) \(hours)")
        }
    }
}
