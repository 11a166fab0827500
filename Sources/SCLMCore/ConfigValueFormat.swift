import Foundation

/// The form a setting's value takes: one rule, used by `sclm config set` when the value is stored and by
/// ``Configuration`` when the value is read, so a value the reader would refuse is refused when it is set.
package enum ConfigValueFormat: Sendable, Equatable {
    /// Any text.
    case text
    /// One of these words, exactly or, when the reader ignores case, in any case (the reader then gets the
    /// spelling listed here).
    case choice([String], ignoringCase: Bool = false)
    /// A whole number from `atLeast` to `atMost`.
    case wholeNumber(atLeast: Int, atMost: Int = Int.max)
    /// A decimal number within the range (a latitude, a longitude).
    case decimal(ClosedRange<Double>)
    /// An `http://` or `https://` URL with a host.
    case httpURL
    /// A proxy as libcurl takes it (`http://proxy.corp:3128`, `proxy.corp:3128`), without a user or password:
    /// those go in a secret setting, never in a value that is shown.
    case proxyURL

    /// The accepted form in words, e.g. "a whole number of at least 0", "IOS or ANDROID".
    package var acceptedForm: String {
        switch self {
        case .text: return "text"
        case .choice(let words, _): return words.joined(separator: " or ")
        case .wholeNumber(let minimum, let maximum):
            return maximum == Int.max
                ? "a whole number of at least \(minimum)" : "a whole number from \(minimum) to \(maximum)"
        case .decimal(let range):
            return "a number from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))"
        case .httpURL: return "an http(s) URL such as https://host.example"
        case .proxyURL:
            return "a proxy URL without a user or password, such as http://proxy.corp:3128 (give those with "
                + "`sclm config set http.proxyCredentials -`)"
        }
    }

    /// What is wrong with `text`, which this form refuses, in the words every entry point uses — `sclm config
    /// set`, `config.json`, the environment and a command-line flag: "must be a whole number from 1 to 64, got
    /// '0'" (a secret's value is not repeated).
    package func refusal(of text: String, secret: Bool) -> ConfigRefusal {
        let shown = secret ? "" : ", got '\(URLPasswords.redacting(text))'"
        return ConfigRefusal(reason: "must be \(acceptedForm)\(shown)")
    }

    /// The placeholder of `sclm config set KEY <placeholder>` hints.
    package var placeholder: String {
        switch self {
        case .text: return "VALUE"
        case .choice(let words, _): return words.joined(separator: "|")
        case .wholeNumber, .decimal: return "N"
        case .httpURL, .proxyURL: return "URL"
        }
    }

    /// `text` in its canonical spelling when it has this form, else `nil`.
    package func normalized(_ text: String) -> String? {
        switch self {
        case .text:
            return text
        case .choice(let words, let ignoringCase):
            return words.first { ignoringCase ? $0.caseInsensitiveCompare(text) == .orderedSame : $0 == text }
        case .wholeNumber(let minimum, let maximum):
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)), (minimum...maximum).contains(number)
            else { return nil }
            return String(number)
        case .decimal(let range):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let number = Double(trimmed), number.isFinite, range.contains(number) else { return nil }
            return trimmed
        case .proxyURL:
            return URLPasswords.userInfo(in: text) == nil ? text : nil
        case .httpURL:
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host(percentEncoded: false)?.isEmpty == false
            else { return nil }
            return text
        }
    }

    /// A bound as the accepted form shows it: `90`, `-180`, `0.5`.
    private static func text(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int(bound)) : String(bound)
    }
}
