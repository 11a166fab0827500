/// Finds and hides the user information (`user:password@`) of URLs inside setting values, so that no
/// password reaches the output of `sclm config get|list` or an error message.
///
/// A URL's user information starts at the start of the text or right after `scheme://` (a scheme holding
/// a letter): a user name of anything but `/`, `@`, `:` and white space, then optionally `:` and a
/// password of anything but `/`, `@` and white space, then `@`. One pass over the text: a value of any
/// length is scanned in linear time (a backtracking pattern took minutes on a 40,000-character value).
package enum URLPasswords {
    /// Where one URL's user information is, as offsets into the text's Unicode scalars.
    private struct UserInfo {
        /// Where the user name starts.
        let user: Int
        /// Where its `:password` starts, if it has one.
        let secret: Int?
        /// Where its `@` is.
        let at: Int
    }

    /// The user information of the first URL in `text` that carries one (`user` or `user:password`), else `nil`.
    package static func userInfo(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard let info = userInfos(in: scalars).first else { return nil }
        return String(String.UnicodeScalarView(scalars[info.user..<info.at]))
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
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var copied = 0
        for info in userInfos(in: scalars) {
            guard let secret = info.secret else { continue }
            result.append(contentsOf: scalars[copied..<secret])
            result.append(contentsOf: replacement.unicodeScalars)
            copied = info.at
        }
        result.append(contentsOf: scalars[copied...])
        return String(result)
    }

    /// Every URL's user information in `scalars`, left to right, none overlapping.
    private static func userInfos(in scalars: [Unicode.Scalar]) -> [UserInfo] {
        var found: [UserInfo] = []
        var start = 0
        while start <= scalars.count {
            if start == 0 || followsScheme(scalars, at: start), let info = userInfo(in: scalars, from: start) {
                found.append(info)
                start = info.at + 1
            } else {
                start += 1
            }
        }
        return found
    }

    /// Whether `scheme://` (scheme characters, a letter among them) ends just before `index`. The scheme runs
    /// looked at hold no `:` or `/`, so no scalar is looked at twice over a scan.
    private static func followsScheme(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index >= 4, scalars[index - 3] == ":", scalars[index - 2] == "/", scalars[index - 1] == "/" else {
            return false
        }
        var position = index - 4
        while position >= 0, isSchemeCharacter(scalars[position]) {
            if isLetter(scalars[position]) { return true }
            position -= 1
        }
        return false
    }

    /// The user information that starts at `start`, if `@` ends it.
    private static func userInfo(in scalars: [Unicode.Scalar], from start: Int) -> UserInfo? {
        let userEnd = run(in: scalars, from: start) { $0 != ":" && !ends($0) }
        if userEnd < scalars.count, scalars[userEnd] == "@" { return UserInfo(user: start, secret: nil, at: userEnd) }
        guard userEnd < scalars.count, scalars[userEnd] == ":" else { return nil }
        let secretEnd = run(in: scalars, from: userEnd + 1) { !ends($0) }
        guard secretEnd < scalars.count, scalars[secretEnd] == "@" else { return nil }
        return UserInfo(user: start, secret: userEnd, at: secretEnd)
    }

    /// Where the run of scalars from `start` that satisfy `belongs` ends.
    private static func run(in scalars: [Unicode.Scalar], from start: Int, while belongs: (Unicode.Scalar) -> Bool)
        -> Int
    {
        var end = start
        while end < scalars.count, belongs(scalars[end]) { end += 1 }
        return end
    }

    /// Whether `scalar` ends a user name or a password: `/`, `@` or white space.
    private static func ends(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar == "@" || scalar.properties.isWhitespace
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "." || scalar == "-"
    }
}
