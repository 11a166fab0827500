import Foundation

/// Finds and hides the user information (`user:password@`) of URLs inside setting values, so that no
/// password reaches the output of `sclm config get|list` or an error message.
package enum URLPasswords {
    /// `scheme://user:password@` or, without a scheme, `user:password@` at the start of a host (a new regex
    /// each time: `Regex` is not `Sendable`).
    private static var pattern: Regex<(Substring, prefix: Substring, user: Substring, secret: Substring?)> {
        /(?<prefix>(?:^|[a-zA-Z][a-zA-Z0-9+.-]*:\/\/))(?<user>[^\/@:\s]*)(?<secret>:[^\/@\s]*)?@/
    }

    /// The user information of the first URL in `text` that carries one (`user` or `user:password`), else `nil`.
    package static func userInfo(in text: String) -> String? {
        guard let match = text.firstMatch(of: pattern) else { return nil }
        return String(match.output.user) + String(match.output.secret ?? "")
    }

    /// `text` with the password of every URL replaced by `********` (the user name is kept).
    package static func redacting(_ text: String) -> String {
        replacingPasswords(in: text, with: ":********")
    }

    /// `text` with the password of every URL removed, `user:password@host` becoming `user@host` (host and
    /// port kept).
    package static func removing(from text: String) -> String {
        replacingPasswords(in: text, with: "")
    }

    /// `text` with the `:password` of every URL that has one replaced by `replacement`.
    private static func replacingPasswords(in text: String, with replacement: String) -> String {
        text.replacing(pattern) { match in
            let secret = match.output.secret == nil ? "" : replacement
            return String(match.output.prefix) + String(match.output.user) + secret + "@"
        }
    }
}
