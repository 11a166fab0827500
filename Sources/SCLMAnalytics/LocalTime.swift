import Foundation
import SCLMCore

/// StoryIoT's local time: `yyyy-MM-dd'T'HH:mm:ss.SSSSSSS`, no zone (`s-m-lt` and the bodies' `created`).
///
/// Rows keep their instant in UTC and their zone as whole hours (`timeZone`, as StoryContent stores
/// it). The local time adds the zone's offset: the zone of this machine when its whole hours agree
/// with the row's (so half-hour zones such as India's stay exact), else the row's hours.
package enum LocalTime {
    /// `date` as local time in a zone `timeZoneHours` from UTC.
    ///
    /// - Parameters:
    ///   - date: the instant.
    ///   - timeZoneHours: the row's zone in whole hours.
    ///   - zone: this machine's zone, whose exact offset wins when it has the same whole hours.
    /// - Returns: the local time as StoryIoT writes it.
    package static func string(for date: Date, timeZoneHours: Int64, zone: TimeZone = .current) -> String {
        let exact = zone.secondsFromGMT(for: date)
        let offset = Int64(exact / 3600) == timeZoneHours ? exact : Int(timeZoneHours) * 3600
        // Rows keep milliseconds, and a `Date` carries floating-point noise below that (0.2 µs today, more
        // later), so the instant is rounded to milliseconds; the seven digits are .NET's 100 ns ticks.
        let milliseconds = Timestamp.epochMilliseconds(date) + Int64(offset) * 1000
        let (seconds, fraction) = floorDivision(milliseconds, 1000)
        return CivilTime(epochSeconds: seconds).text + "." + padded(fraction, width: 3) + "0000"
    }

    /// `a / b` and `a % b` rounded towards negative infinity (instants before 1970 stay correct).
    static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }

    /// `value` in decimal with leading zeros to `width` digits.
    static func padded(_ value: Int64, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A UTC calendar date and time from seconds since 1970, by integer arithmetic (the proleptic Gregorian
/// calendar; days-to-civil after Howard Hinnant's `chrono` algorithms), without `Calendar`'s cost.
struct CivilTime {
    var year: Int64
    var month: Int64
    var day: Int64
    var hour: Int64
    var minute: Int64
    var second: Int64

    init(epochSeconds: Int64) {
        let (days, secondOfDay) = LocalTime.floorDivision(epochSeconds, 86_400)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        let shifted = days + 719_468
        let era = LocalTime.floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `yyyy-MM-dd'T'HH:mm:ss`.
    var text: String {
        let date = [
            LocalTime.padded(year, width: 4), LocalTime.padded(month, width: 2), LocalTime.padded(day, width: 2),
        ]
        let time = [
            LocalTime.padded(hour, width: 2), LocalTime.padded(minute, width: 2), LocalTime.padded(second, width: 2),
        ]
        return date.joined(separator: "-") + "T" + time.joined(separator: ":")
    }
}
