import SCLMCore

/// The settings of sclm's own HTTP requests (trust, timeouts, retries, proxy), declared beside the transport
/// that applies them; `SCLMCommands`' `SettingsCatalog` registers them with every other feature's.
extension ConfigKey where Value == String {
    /// A custom CA bundle for TLS verification.
    package static let caBundle = ConfigKey(
        "http.caBundle",
        help: "PEM file of trusted CAs for TLS, also of an https http.proxy (default: the system store).",
        environment: "SCLM_CA_BUNDLE")
    /// The proxy every sclm request goes through (API, login, downloads), instead of what libcurl would read
    /// from `https_proxy`, `HTTPS_PROXY`, `http_proxy` and `no_proxy`.
    package static let proxy = ConfigKey(
        "http.proxy",
        help:
            "Proxy for sclm's own requests, e.g. http://proxy.corp:3128; set, it overrides https_proxy, HTTPS_PROXY,"
            + " http_proxy and no_proxy (unset: libcurl reads those variables); no user or password in it.",
        format: .proxyURL)
    /// The proxy's user and password, `user:password`.
    package static let proxyCredentials = ConfigKey(
        "http.proxyCredentials", help: "User and password for http.proxy, as user:password.", secret: true)
    /// Hosts reached without the proxy, when `http.proxy` is set (libcurl's `no_proxy` syntax).
    package static let noProxy = ConfigKey(
        "http.noProxy",
        help: "With http.proxy: hosts reached directly, comma-separated (no_proxy syntax; the variable is ignored).")
}

extension ConfigKey where Value == Int {
    /// Seconds DNS, TCP and TLS may take together.
    package static let connectTimeout = ConfigKey(
        "http.connectTimeout", help: "Seconds DNS, TCP and TLS may take together.", default: 30, range: 0...86_400)
    /// Seconds a transfer may receive less than a byte per second before it fails.
    package static let stallTimeout = ConfigKey(
        "http.stallTimeout", help: "Seconds a transfer may stall (under 1 byte/s) before it fails.", default: 30,
        range: 0...86_400)
    /// Seconds one API request may take in all (downloads have no total limit, only the stall limit).
    package static let requestTimeout = ConfigKey(
        "http.requestTimeout", help: "Seconds one API request may take in all (not downloads).", default: 120,
        range: 0...86_400)
    /// Retries of a request after a transient failure (connection, timeout, 429/5xx).
    package static let retries = ConfigKey(
        "http.retries", help: "Retries of a request after a transient failure, with backoff.", default: 4,
        range: 0...100)
}
