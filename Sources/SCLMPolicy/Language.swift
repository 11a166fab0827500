/// The languages OSAM alerts and topics know: Catalan, Spanish and English.
///
/// The raw value is OSAM's `Language.name` (`"CA"`, `"ES"`, `"EN"`), which is what ends up in the
/// persisted state and in topic names.
package enum Language: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case ca = "CA"
    case es = "ES"
    case en = "EN"

    /// The language used when a value names none of the three: English.
    package static let `default` = Language.en

    /// The lowercase code used in localized JSON objects (`"ca"`, `"es"`, `"en"`).
    package var code: String { rawValue.lowercased() }

    package var description: String { rawValue }

    /// The separators that end a locale tag's language (`ca-ES`, `es_ES.UTF-8`, `ca@valencia`).
    private static let tagSeparators: Set<Character> = ["-", "_", ".", "@"]

    /// The language named by `value`, compared case-insensitively, or `fallback` for anything else.
    ///
    /// Like OSAM's `Language.parse`, anything unknown (`"fr"`, `""`, `" ca"`) gives the fallback and is never
    /// an error, because hosts pass the device locale through unchanged. Unlike OSAM, which gives the
    /// fallback for those too, a locale tag picks its language: `"ca-ES"` and `"es_ES"` are Catalan and Spanish.
    package static func parse(_ value: String, default fallback: Language = .default) -> Language {
        let primary = value.prefix { !tagSeparators.contains($0) }.lowercased()
        return allCases.first { $0.code == primary } ?? fallback
    }
}
