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
        Case(name: "row zone east of UTC", utc: "2026-03-01T22:15:02.123Z", hours: 3, zone: "UTC",
             local: "2026-03-02T01:15:02.1230000"),
        Case(name: "row zone west of UTC", utc: "2026-03-01T02:00:00.000Z", hours: -5, zone: "UTC",
             local: "2026-02-28T21:00:00.0000000"),
        Case(name: "machine in the row's half-hour zone keeps the half hour", utc: "2026-03-01T09:00:00.500Z",
             hours: 5, zone: "Asia/Kolkata", local: "2026-03-01T14:30:00.5000000"),
        Case(name: "machine in another zone uses the row's hours", utc: "2026-03-01T09:00:00.000Z", hours: 1,
             zone: "Asia/Kolkata", local: "2026-03-01T10:00:00.0000000"),
        Case(name: "daylight saving time of the machine's zone", utc: "2026-07-01T12:00:00.999Z", hours: 2,
             zone: "Europe/Berlin", local: "2026-07-01T14:00:00.9990000"),
    ]

    @Test(arguments: cases)
    func formatsSevenFractionDigitsWithoutZone(_ example: Case) throws {
        let date = try #require(Timestamp.date(from: example.utc))
        let zone = try #require(TimeZone(identifier: example.zone))
        #expect(LocalTime.string(for: date, timeZoneHours: example.hours, zone: zone) == example.local)
    }
}
