/// The languages OSAM alerts and topics know: Catalan, Spanish and English (`reference/osam.md` §5).
///
/// The raw value is OSAM's `Language.name` (`"CA"`, `"ES"`, `"EN"`), which is what ends up in the
/// persisted state and in topic names.
public enum Language: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case ca = "CA"
    case es = "ES"
    case en = "EN"

    /// The language used when a value names none of the three: English.
    public static let `default` = Language.en

    /// The lowercase code used in localized JSON objects (`"ca"`, `"es"`, `"en"`).
    public var code: String { rawValue.lowercased() }

    public var description: String { rawValue }

    /// The language named by `value`, compared case-insensitively, or `fallback` for anything else.
    ///
    /// Like OSAM's `Language.parse`, there is no trimming and no locale parsing: `"ca-ES"`, `" ca"` and `""`
    /// all give the fallback.
    public static func parse(_ value: String, default fallback: Language = .default) -> Language {
        allCases.first { $0.rawValue.lowercased() == value.lowercased() } ?? fallback
    }
}
