import Foundation
import SCLMArchive
import SCLMAuth
import SCLMCore
import SCLMHTTP
import SCLMStore
import SCLMSync

/// The StoryCLM API services of one command run, built from the home's configuration: the libcurl transport
/// (cookie jar in the home), the token endpoint, the auth session and the content API. Part of
/// ``Services``, which owns the engine the transport runs on.
struct APIServices {
    let configuration: Configuration
    let store: ContentStore
    let transport: CurlTransport
    let retrier: Retrier
    let requestTimeout: Duration
    /// Where the API's diagnostics go.
    let logger: Logger

    /// Opens the store (creating the home) and builds the transport on `engine` from `http.*` settings of
    /// `configuration` (read from the home when not given); diagnostics go to `logger` (the context's by
    /// default).
    ///
    /// - Throws: `SCLMError` (`.usage`) for a malformed setting, or a storage error.
    init(context: CommandContext, engine: CurlEngine, configuration: Configuration?, logger: Logger?) throws {
        let logger = logger ?? context.logger
        let configuration = try configuration ?? context.configuration()
        self.configuration = configuration
        store = try context.store()
        transport = CurlTransport(
            engine: engine,
            configuration: try APIServices.transportConfiguration(
                configuration, cookieJarPath: context.home.cookieJarPath),
            logger: logger)
        retrier = Retrier(policy: RetryPolicy(maxAttempts: 1 + (try configuration.required(.retries))))
        requestTimeout = try APIServices.seconds(.requestTimeout, in: configuration)
        self.logger = logger
    }

    /// libcurl settings from `http.caBundle`, `http.connectTimeout`, `http.stallTimeout` and the proxy
    /// (``proxyChoice(in:)``), with cookies kept in `cookieJarPath` (in memory only when `nil`).
    ///
    /// - Throws: `SCLMError` (`.usage`) for a malformed setting.
    static func transportConfiguration(_ configuration: Configuration, cookieJarPath: String?) throws
        -> CurlTransport.Configuration
    {
        CurlTransport.Configuration(
            caBundlePath: try configuration.value(.caBundle), cookieJarPath: cookieJarPath,
            connectTimeout: try seconds(.connectTimeout, in: configuration),
            stallTimeout: try seconds(.stallTimeout, in: configuration), proxy: try proxyChoice(in: configuration))
    }

    /// `http.proxy` (with `http.proxyCredentials` and `http.noProxy`) when set, replacing the proxy variables;
    /// else what libcurl reads from them.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a proxy URL that carries a user or password (``ConfigValueFormat/proxyURL``):
    ///   `http.proxy` is not a secret setting (`sclm config` shows it), so credentials belong in
    ///   `http.proxyCredentials`.
    static func proxyChoice(in configuration: Configuration) throws -> ProxyChoice {
        // The value's format refuses a user or password in it (they belong in http.proxyCredentials).
        guard let url = try configuration.value(.proxy), !url.isEmpty else { return .environment }
        return .server(
            ProxyServer(
                url: url, credentials: try configuration.value(.proxyCredentials),
                noProxy: try configuration.value(.noProxy) ?? ""))
    }

    /// The site cache of `sync.blobProxy`, if one is set.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a value that is not an http(s) URL without a query, or a fallback
    ///   setting out of its range.
    static func blobProxy(in configuration: Configuration) throws -> BlobProxy? {
        guard var proxy = try configuration.value(.syncBlobProxy) else { return nil }
        proxy.fallbackAllowed = try configuration.required(.syncBlobProxyFallback)
        proxy.fallbackDelay = .seconds(try configuration.required(.syncBlobProxyFallbackDelay))
        return proxy
    }

    /// The token endpoint from `auth.url`, `auth.clientId`, `auth.clientSecret`.
    ///
    /// - Throws: ``AuthError`` (`.notConfigured`).
    func tokenEndpoint() throws -> TokenEndpoint {
        try TokenEndpoint(
            configuration: configuration, transport: transport, retrier: retrier, timeout: requestTimeout,
            logger: logger)
    }

    /// Where tokens are kept.
    var tokenStore: DatabaseTokenStore { DatabaseTokenStore(store: store) }

    /// The auth session every API request goes through.
    ///
    /// - Throws: ``AuthError`` (`.notConfigured`), `SCLMError` for a malformed `auth.refreshMargin`.
    func authSession(clock: any WallClock) throws -> AuthSession {
        AuthSession(
            endpoint: try tokenEndpoint(), store: tokenStore, transport: transport, clock: clock,
            refreshMargin: TimeInterval(try configuration.required(.refreshMargin)), logger: logger)
    }

    /// The content API at `api.url`.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a malformed `api.url`, ``AuthError`` (`.notConfigured`).
    func syncService(clock: any WallClock) throws -> SyncService {
        SyncService(
            apiURL: try configuration.required(.apiURL), session: try authSession(clock: clock), retrier: retrier,
            timeout: requestTimeout,
            logger: logger)
    }

    /// The package policy of `sclm sync`: the standard budgets, with content errors refused or installed
    /// as `sync.contentPolicy` says and the disk reserve of `sync.diskReserve`.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a value other than `install` or `refuse`, or a reserve out of range.
    static func packagePolicy(in configuration: Configuration) throws -> Policy {
        var policy = Policy.standard
        policy.contentPolicy = try configuration.required(.syncContentPolicy)
        policy.diskReserve = DiskReserve(megabytes: try configuration.value(.syncDiskReserve))
        return policy
    }

    /// A setting in whole seconds (at least 1).
    ///
    /// - Throws: `SCLMError` (`.usage`) naming the accepted form.
    static func seconds(_ key: ConfigKey<Int>, in configuration: Configuration) throws -> Duration {
        .seconds(max(1, try configuration.required(key)))
    }
}
