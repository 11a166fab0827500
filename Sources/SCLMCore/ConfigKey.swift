/// One setting of `config.json`: its name, help, default, environment override and secrecy.
///
/// Keys are dotted (`api.url`, `iot.secret`). Secret keys are shown masked by `sclm config` and never
/// logged. A key with ``isStorable`` false can only come from its environment variable.
package struct ConfigKey: Sendable, Hashable, CustomStringConvertible {
    /// The dotted name, as used by `sclm config get|set`.
    package let name: String
    /// One sentence for `sclm config list --help` and docs/cli.md.
    package let help: String
    /// The value used when neither the environment nor the file sets one.
    package let defaultValue: String?
    /// The environment variable that overrides the file, if any.
    package let environmentVariable: String?
    /// Whether the value is a credential to be masked in output.
    package let isSecret: Bool
    /// Whether `sclm config set` may write it to `config.json`.
    package let isStorable: Bool
    /// The form of its value, checked when it is set and when it is read.
    package let format: ConfigValueFormat

    /// Declares a key.
    ///
    /// - Parameters:
    ///   - name: the dotted name.
    ///   - help: one sentence.
    ///   - defaultValue: the value used when nothing sets one.
    ///   - environment: the environment variable that overrides the file.
    ///   - secret: whether the value is masked in output.
    ///   - storable: whether `sclm config set` may write it.
    ///   - allowedValues: the only values the key takes (a ``ConfigValueFormat/choice(_:)``).
    ///   - format: the form of the value when it is not a choice (default: any text).
    package init(
        _ name: String, help: String, default defaultValue: String? = nil, environment: String? = nil,
        secret: Bool = false, storable: Bool = true, values allowedValues: [String]? = nil,
        format: ConfigValueFormat = .text
    ) {
        self.name = name
        self.help = help
        self.defaultValue = defaultValue
        self.environmentVariable = environment
        self.isSecret = secret
        self.isStorable = storable
        self.format = allowedValues.map { .choice($0) } ?? format
    }

    /// The only values the key takes, when it is a choice (`nil`: another form).
    package var allowedValues: [String]? {
        guard case .choice(let words, _) = format else { return nil }
        return words
    }

    package var description: String { name }

    /// What is wrong with `value`, which the key's ``format`` refuses, in the words every entry point uses —
    /// `sclm config set`, `config.json`, the environment and a command-line flag: "must be a whole number from
    /// 1 to 64, got '0'" (a secret's value is not repeated).
    package func refusal(of value: String) -> String {
        let shown = isSecret ? "" : ", got '\(URLPasswords.redacting(value))'"
        return "must be \(format.acceptedForm)\(shown)"
    }

    package static func == (lhs: ConfigKey, rhs: ConfigKey) -> Bool { lhs.name == rhs.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension ConfigKey {
    /// The StoryCLM content API base URL.
    package static let apiURL = ConfigKey(
        "api.url", help: "StoryCLM content API base URL.", default: "https://api.storyclm.com",
        environment: "SCLM_API_URL", format: .httpURL)
    /// The StoryCLM auth server base URL.
    package static let authURL = ConfigKey(
        "auth.url", help: "StoryCLM auth server base URL.", default: "https://auth.storyclm.com",
        environment: "SCLM_AUTH_URL", format: .httpURL)
    /// The OAuth client id of this application.
    package static let clientId = ConfigKey(
        "auth.clientId", help: "OAuth client id of the application.", environment: "SCLM_CLIENT_ID")
    /// The OAuth client secret of this application.
    package static let clientSecret = ConfigKey(
        "auth.clientSecret", help: "OAuth client secret of the application.", environment: "SCLM_CLIENT_SECRET",
        secret: true)
    /// The user name for the password grant.
    package static let username = ConfigKey(
        "auth.username", help: "User name for `sclm login`.", environment: "SCLM_USERNAME")
    /// The password for the password grant: environment only, never written to disk.
    package static let password = ConfigKey(
        "auth.password", help: "Password for `sclm login` (environment only; never stored).",
        environment: "SCLM_PASSWORD", secret: true, storable: false)
    /// Parallel package transfers of `sclm sync`.
    package static let syncJobs = ConfigKey(
        "sync.jobs", help: "Parallel package transfers of `sclm sync`.", default: "4",
        format: .wholeNumber(atLeast: 1, atMost: 64))
    /// What `sclm sync` does with a package that has content errors (safety errors always refuse it).
    package static let syncContentPolicy = ConfigKey(
        "sync.contentPolicy",
        help: "What `sclm sync` does with a package that has content errors: install (keep the findings) or refuse.",
        default: "install", values: ["install", "refuse"])
    /// A site cache in front of the blob hosts: `https://blobhost/path?sig` is fetched as `URL/blobhost/path?sig`.
    package static let syncBlobProxy = ConfigKey(
        "sync.blobProxy",
        help:
            "Site cache for package and media downloads: https://blobhost/path?sig is fetched as URL/blobhost/path?sig"
            + " with an X-SCLM-ETag header (see contrib/nginx/sclm-cache.conf and docs/fleet.md).",
        format: .httpURL)
    /// Whether a sync may fetch blobs from their origin directly when the site cache cannot be reached.
    package static let syncBlobProxyFallback = ConfigKey(
        "sync.blobProxyFallback",
        help:
            "When the sync.blobProxy cache cannot be reached (no connection, time-out, its own 502/504), fetch from"
            + " the origin directly (false: fail instead).",
        default: "true", values: ["true", "false"])
    /// The longest random pause before that fallback, so a whole site does not hit its uplink at once.
    package static let syncBlobProxyFallbackDelay = ConfigKey(
        "sync.blobProxyFallbackDelay",
        help: "Longest random pause, in seconds, before fetching from the origin when the site cache fails (0: none).",
        default: "30", format: .wholeNumber(atLeast: 0, atMost: 3600))
    /// The Prometheus textfile written after every sync, for node_exporter's textfile collector.
    package static let metricsTextfile = ConfigKey(
        "metrics.textfile",
        help:
            "Prometheus text file (*.prom) written after every sync for node_exporter's textfile collector"
            + " (unset: none; docs/fleet.md).")
    /// A custom CA bundle for TLS verification.
    package static let caBundle = ConfigKey(
        "http.caBundle",
        help: "PEM file of trusted CAs for TLS, also of an https http.proxy (default: the system store).",
        environment: "SCLM_CA_BUNDLE")

    /// Every key sclm knows, in display order.
    package static let all: [ConfigKey] =
        [
            apiURL, authURL, clientId, clientSecret, username, password, syncJobs, syncContentPolicy, syncBlobProxy,
            syncBlobProxyFallback, syncBlobProxyFallbackDelay, metricsTextfile, caBundle,
        ]
        + ConfigKey.extensionKeys + ConfigKey.httpKeys + ConfigKey.osamKeys + ConfigKey.iotKeys

    /// Looks a key up by its dotted name.
    package static func named(_ name: String) -> ConfigKey? {
        all.first { $0.name == name }
    }

    /// The environment variables that carry a secret key's value (`SCLM_CLIENT_SECRET`, `SCLM_PASSWORD`, …),
    /// taken from the table's secret flag so that a new secret key is covered too.
    package static let secretEnvironmentVariables: Set<String> = Set(
        all.filter(\.isSecret).compactMap(\.environmentVariable))

    /// Whether the `NAME=value` entry of an environment block sets one of ``secretEnvironmentVariables``.
    package static func isSecretEnvironmentEntry(_ entry: String) -> Bool {
        guard let equals = entry.firstIndex(of: "=") else { return false }
        return secretEnvironmentVariables.contains(String(entry[..<equals]))
    }
}
