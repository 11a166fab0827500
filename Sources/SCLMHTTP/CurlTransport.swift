import Foundation
import SCLMCore

/// The production ``HTTPTransport``: libcurl, with sclm's network policy applied to every request.
///
/// - only http and https, also on redirects, and at most ``Configuration/maxRedirects`` of them;
/// - TLS verification always on, optionally against a custom CA bundle (`http.caBundle`, `SCLM_CA_BUNDLE`);
/// - a connect timeout and a stall detector instead of a total timeout (requests may add one);
/// - compressed API responses accepted; `User-Agent: sclm/<version>`;
/// - libcurl's proxy environment variables (`https_proxy`, `no_proxy`, …) honoured, unless
///   ``Configuration/proxy`` chooses otherwise;
/// - one cookie store for all requests, persisted in ``Configuration/cookieJarPath`` with mode 0600;
/// - with a ``Configuration/networkRule``, every hop and every connection checked against it.
///
/// A transport is a view on a ``CurlEngine``: transfers run on the engine's one thread, any number of
/// tasks may call at once, and several transports with different policies share the engine.
///
/// ```swift
/// let transport = CurlTransport(engine: engine, configuration: .init(cookieJarPath: home.cookieJarPath))
/// let response = try await transport.send(HTTPRequest(url: apiURL.appending(path: "v1/clients")))
/// ```
package final class CurlTransport: HTTPTransport {
    /// The network policy of a transport.
    package struct Configuration: Sendable, Equatable {
        /// The `User-Agent` header.
        package var userAgent: String
        /// A PEM file of trusted CAs instead of the system store.
        package var caBundlePath: String?
        /// Where cookies persist between runs; `nil` keeps them in memory only.
        package var cookieJarPath: String?
        /// How long DNS, TCP and TLS together may take.
        package var connectTimeout: Duration
        /// How long a transfer may receive less than a byte per second before it fails.
        package var stallTimeout: Duration
        /// The most redirects followed.
        package var maxRedirects: Int
        /// Where requests may go; `nil` (sclm's own API and blob transfers) goes anywhere. With a rule,
        /// redirects are followed hop by hop, each hop admitted by the rule before it starts, and each
        /// address libcurl connects to (a proxy's too) checked as the rule's admission says.
        package var networkRule: NetworkRule?
        /// Which proxy requests go through.
        package var proxy: ProxyChoice

        /// Creates a configuration; the defaults suit both API calls and large downloads.
        package init(
            userAgent: String = SCLMVersion.userAgent, caBundlePath: String? = nil, cookieJarPath: String? = nil,
            connectTimeout: Duration = .seconds(30), stallTimeout: Duration = .seconds(30), maxRedirects: Int = 5,
            networkRule: NetworkRule? = nil, proxy: ProxyChoice = .environment
        ) {
            self.userAgent = userAgent
            self.caBundlePath = caBundlePath
            self.cookieJarPath = cookieJarPath
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.maxRedirects = maxRedirects
            self.networkRule = networkRule
            self.proxy = proxy
        }
    }

    /// The policy applied to every request.
    package let configuration: Configuration
    private let engine: CurlEngine
    private let session: CurlSession
    /// Whether this transport made its engine and so stops it when it goes away.
    private let ownsEngine: Bool
    private let logger: Logger?

    /// Creates a view on `engine` with its own policy and its own cookies, DNS, TLS and connection caches;
    /// `logger` receives one debug line per exchange (method, host, path, status). The engine's owner
    /// stops it (``CurlEngine/shutdown()``); the transport does not.
    package convenience init(engine: CurlEngine, configuration: Configuration = Configuration(), logger: Logger? = nil)
    {
        self.init(engine: engine, ownsEngine: false, configuration: configuration, logger: logger)
    }

    /// Creates a transport with an engine of its own, stopped when the transport goes away: for tests and
    /// one-off tools. sclm's commands build their transports on the one engine of `withServices`.
    package convenience init(configuration: Configuration = Configuration(), logger: Logger? = nil) {
        self.init(engine: CurlEngine(), ownsEngine: true, configuration: configuration, logger: logger)
    }

    private init(engine: CurlEngine, ownsEngine: Bool, configuration: Configuration, logger: Logger?) {
        self.configuration = configuration
        self.logger = logger
        self.engine = engine
        self.ownsEngine = ownsEngine
        session = engine.makeSession(cookieJar: configuration.cookieJarPath.map { CookieJar(path: $0, logger: logger) })
    }

    deinit {
        // Only the self-contained form (tests, tools) ends its engine here; a shared engine's owner stops it.
        if ownsEngine { engine.stop() }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let started = ContinuousClock.now
        let completion = try await logged(request, started: started) {
            guard let rule = configuration.networkRule else {
                return try await engine.perform(CurlTransfer(request, configuration: configuration), in: session)
            }
            return try await performHopByHop(request, rule: rule)
        }
        logger?.debug(
            "\(request.summary) → \(completion.status), \(completion.body.count) bytes in \(Self.elapsed(since: started))"
        )
        return HTTPResponse(
            status: completion.status, headers: completion.headers, body: completion.body, url: completion.url)
    }

    package func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
        -> DownloadResult
    {
        try Task.checkCancellation()
        var http = request.request
        if request.resumeOffset > 0, let validator = request.ifRange {
            http.headers.set(name: "If-Range", value: validator)
        }
        let file = try DownloadFile(request)
        let started = ContinuousClock.now
        let completion = try await logged(http, started: started) {
            // Under a rule a redirect is not followed, so it fails like any status but 200, 206 and 416.
            let admission = try configuration.networkRule.map { try Self.admission(for: http, by: $0) }
            return try await engine.perform(
                CurlTransfer(http, file: file, progress: progress, admission: admission, configuration: configuration),
                in: session)
        }
        let outcome = file.outcome ?? .complete
        logger?.debug(
            "\(http.summary) → \(completion.status), \(file.received) bytes to \(request.destinationPath) in \(Self.elapsed(since: started))"
        )
        return DownloadResult(
            outcome: outcome, status: completion.status, headers: completion.headers, fileBytes: file.size,
            receivedBytes: file.received)
    }

    /// Follows redirects one hop at a time, so that each hop passes `rule` before it starts (libcurl 7.88
    /// has no callback before it follows a redirect itself).
    private func performHopByHop(_ request: HTTPRequest, rule: NetworkRule) async throws -> CurlTransfer.Completion {
        var hop = request
        var redirects = 0
        while true {
            let admission = try Self.admission(for: hop, by: rule)
            let transfer = try CurlTransfer(hop, admission: admission, configuration: configuration)
            let completion = try await engine.perform(transfer, in: session)
            guard let location = completion.redirectURL, HTTPRequest.redirectStatuses.contains(completion.status) else {
                return completion
            }
            guard redirects < configuration.maxRedirects else {
                throw HTTPError(.tooManyRedirects, method: request.method, url: request.url)
            }
            redirects += 1
            logger?.debug("\(hop.summary) → \(completion.status), redirected to \(location.redactedDescription)")
            hop = hop.redirected(to: location, status: completion.status)
        }
    }

    /// What `rule` lets `request`'s hop connect to.
    ///
    /// - Throws: ``HTTPError`` (`.destinationRefused`) when the rule refuses the hop itself.
    private static func admission(for request: HTTPRequest, by rule: NetworkRule) throws -> NetworkRule.Admission {
        guard let admission = rule.admission(for: request.url) else {
            throw HTTPError(
                .destinationRefused, method: request.method, url: request.url,
                detail: "\(request.url.hostDescription) is not allowed")
        }
        return admission
    }

    private func logged<T>(_ request: HTTPRequest, started: ContinuousClock.Instant, _ body: () async throws -> T)
        async throws -> T
    {
        do {
            return try await body()
        } catch {
            logger?.debug("\(request.summary) failed after \(Self.elapsed(since: started)): \(error.userMessage)")
            throw error
        }
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> String {
        "\((ContinuousClock.now - start).milliseconds) ms"
    }
}
