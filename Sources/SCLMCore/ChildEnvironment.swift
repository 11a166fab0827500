/// The environment a program sclm starts on the user's behalf (an external bridge module) gets: the
/// process environment without sclm's secrets.
///
/// The composition root computes it once — it knows every secret setting — and hands it down to the code
/// that spawns the program; nothing below it decides what is secret. Two things are held back: every
/// variable named in `secrets` (`SCLM_PASSWORD`, `SCLM_CLIENT_SECRET`, … — the environment variables of
/// the settings marked secret), and the password of a proxy URL (`https_proxy=http://user:PASSWORD@host:3128`
/// reaches the program as `http://user@host:3128`: it may still find the proxy, never the password).
/// Everything else (`PATH`, `HOME`, `LANG`, the other `SCLM_*` settings) is passed as is.
package struct ChildEnvironment: Sendable, Equatable {
    /// The `NAME=value` entries, sorted by name.
    package let entries: [String]

    /// `environment` without the variables named in `secrets`, its proxy URLs without their passwords.
    package init(_ environment: [String: String], withholding secrets: Set<String>) {
        entries = environment.filter { !secrets.contains($0.key) }.sorted { $0.key < $1.key }.map { name, value in
            name + "=" + (Self.namesProxy(name) ? URLPasswords.removing(from: value) : value)
        }
    }

    /// Whether the variable `name` holds a proxy URL: `http_proxy`, `HTTPS_PROXY`, `all_proxy`, … (any
    /// `*_proxy` in either case, the convention curl, wget, pip and most others read).
    static func namesProxy(_ name: String) -> Bool {
        name.lowercased().hasSuffix("_proxy")
    }
}
