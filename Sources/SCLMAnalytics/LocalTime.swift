import Foundation

/// StoryIoT's local time: `yyyy-MM-dd'T'HH:mm:ss.SSSSSSS`, no zone (`s-m-lt` and the bodies' `created`).
///
/// Rows keep their instant in UTC and their zone as whole hours (`timeZone`, as StoryContent stores
/// it). The local time adds the zone's offset: the zone of this machine when its whole hours agree
/// with the row's (so half-hour zones such as India's stay exact), else the row's hours.
public enum LocalTime {
    /// `date` as local time in a zone `timeZoneHours` from UTC.
    ///
    /// - Parameters:
    ///   - date: the instant.
    ///   - timeZoneHours: the row's zone in whole hours.
    ///   - zone: this machine's zone, whose exact offset wins when it has the same whole hours.
    public static func string(for date: Date, timeZoneHours: Int64, zone: TimeZone = .current) -> String {
        let exact = zone.secondsFromGMT(for: date)
        let offset = Int64(exact / 3600) == timeZoneHours ? exact : Int(timeZoneHours) * 3600
        return utcString(for: date.addingTimeInterval(TimeInterval(offset)))
    }

    /// `date` in UTC with seven fraction digits (.NET's 100 ns ticks). The fraction is rounded to whole
    /// microseconds first: a `Date` near today carries about 0.2 µs of floating-point noise, and rows
    /// keep milliseconds anyway.
    static func utcString(for date: Date) -> String {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let seconds = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let (whole, fraction) = seconds.remainder < 0 ? (seconds.quotient - 1, seconds.remainder + 1_000_000) : seconds
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(whole)))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%07lld", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, fraction * 10)
    }
}
