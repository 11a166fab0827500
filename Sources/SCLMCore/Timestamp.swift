import Foundation

/// The date formats sclm reads and writes.
///
/// Local instants are stored as ISO-8601 UTC with milliseconds (`2026-11-30T09:15:02.123Z`). StoryCLM
/// server dates have no zone and a variable fraction (`2016-12-27T11:06:14.447`); they are UTC.
package enum Timestamp {
    /// `date` as ISO-8601 UTC with milliseconds.
    package static func string(from date: Date) -> String {
        date.formatted(iso8601)
    }

    /// Parses ISO-8601 with or without a zone and with 0–7 fraction digits; a missing zone means UTC.
    package static func date(from text: String) -> Date? {
        var text = text.trimmingCharacters(in: .whitespaces)
        guard text.count >= 19 else { return nil }
        if !(text.hasSuffix("Z") || text.dropFirst(19).contains("+") || text.dropFirst(19).contains("-")) {
            text += "Z"
        }
        if let date = try? Date(text, strategy: iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return parseLongFraction(text)
    }

    /// Milliseconds since the Unix epoch.
    package static func epochMilliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static let iso8601 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Parses fractions the format style rejects (more than 3 digits, e.g. .NET's 7-digit ticks).
    private static func parseLongFraction(_ text: String) -> Date? {
        guard let dot = text.firstIndex(of: ".") else { return nil }
        let digits = text[text.index(after: dot)...].prefix { $0.isNumber }
        let rest = text[text.index(after: dot)...].dropFirst(digits.count)
        guard !digits.isEmpty, let whole = try? Date(String(text[..<dot]) + rest, strategy: Date.ISO8601FormatStyle())
        else { return nil }
        let fraction = Double("0." + digits) ?? 0
        return whole.addingTimeInterval(fraction)
    }
}
