/// Keys of the network and login behaviour (timeouts, retries, token renewal).
extension ConfigKey {
    /// Seconds DNS, TCP and TLS may take together.
    public static let connectTimeout = ConfigKey(
        "http.connectTimeout", help: "Seconds DNS, TCP and TLS may take together.", default: "30",
        format: .wholeNumber(atLeast: 0))
    /// Seconds a transfer may receive less than a byte per second before it fails.
    public static let stallTimeout = ConfigKey(
        "http.stallTimeout", help: "Seconds a transfer may stall (under 1 byte/s) before it fails.", default: "30",
        format: .wholeNumber(atLeast: 0))
    /// Seconds one API request may take in all (downloads have no total limit, only the stall limit).
    public static let requestTimeout = ConfigKey(
        "http.requestTimeout", help: "Seconds one API request may take in all (not downloads).", default: "120",
        format: .wholeNumber(atLeast: 0))
    /// Retries of a request after a transient failure (connection, timeout, 429/5xx).
    public static let retries = ConfigKey(
        "http.retries", help: "Retries of a request after a transient failure, with backoff.", default: "4",
        format: .wholeNumber(atLeast: 0))
    /// Renew the access token when it expires within this many seconds.
    public static let refreshMargin = ConfigKey(
        "auth.refreshMargin", help: "Renew the access token this many seconds before it expires.", default: "60",
        format: .wholeNumber(atLeast: 0))

    static let httpKeys: [ConfigKey] = [connectTimeout, stallTimeout, requestTimeout, retries, refreshMargin]
}
