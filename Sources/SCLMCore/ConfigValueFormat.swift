import Foundation

/// The form a setting's value takes: one rule, used by `sclm config set` when the value is stored and by
/// ``Configuration`` when the value is read, so a value the reader would refuse is refused when it is set.
package enum ConfigValueFormat: Sendable, Equatable {
    /// Any text.
    case text
    /// One of these words, exactly or, when the reader ignores case, in any case (the reader then gets the
    /// spelling listed here).
    case choice([String], ignoringCase: Bool = false)
    /// A whole number of at least this much.
    case wholeNumber(atLeast: Int)
    /// An `http://` or `https://` URL with a host.
    case httpURL

    /// The accepted form in words, e.g. "a whole number of at least 0", "IOS or ANDROID".
    package var acceptedForm: String {
        switch self {
        case .text: return "text"
        case .choice(let words, _): return words.joined(separator: " or ")
        case .wholeNumber(let minimum): return "a whole number of at least \(minimum)"
        case .httpURL: return "an http(s) URL such as https://host.example"
        }
    }

    /// The placeholder of `sclm config set KEY <placeholder>` hints.
    package var placeholder: String {
        switch self {
        case .text: return "VALUE"
        case .choice(let words, _): return words.joined(separator: "|")
        case .wholeNumber: return "N"
        case .httpURL: return "URL"
        }
    }

    /// `text` in its canonical spelling when it has this form, else `nil`.
    package func normalized(_ text: String) -> String? {
        switch self {
        case .text:
            return text
        case .choice(let words, let ignoringCase):
            return words.first { ignoringCase ? $0.caseInsensitiveCompare(text) == .orderedSame : $0 == text }
        case .wholeNumber(let minimum):
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= minimum else { return nil }
            return String(number)
        case .httpURL:
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host(percentEncoded: false)?.isEmpty == false
            else { return nil }
            return text
        }
    }
}
