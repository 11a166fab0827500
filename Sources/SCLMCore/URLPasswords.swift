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
        text.replacing(pattern) { match in
            let masked = match.output.secret == nil ? "" : ":********"
            return String(match.output.prefix) + String(match.output.user) + masked + "@"
        }
    }
}
