import Foundation
import SCLMCore

/// The production ``HTTPTransport``: libcurl, with sclm's network policy applied to every request.
///
/// - only http and https, also on redirects, and at most ``Configuration/maxRedirects`` of them;
/// - TLS verification always on, optionally against a custom CA bundle (`http.caBundle`, `SCLM_CA_BUNDLE`);
/// - a connect timeout and a stall detector instead of a total timeout (requests may add one);
/// - compressed API responses accepted; `User-Agent: sclm/<version>`;
/// - libcurl's proxy environment variables (`https_proxy`, `no_proxy`, …) honoured;
/// - one cookie store for all requests, persisted in ``Configuration/cookieJarPath`` with mode 0600.
///
/// Transfers run on one dedicated thread (``CurlEngine``); any number of tasks may call at once.
///
/// ```swift
/// let transport = CurlTransport(configuration: .init(cookieJarPath: home.cookieJarPath))
/// let response = try await transport.send(HTTPRequest(url: apiURL.appending(path: "v1/clients")))
/// ```
public final class CurlTransport: HTTPTransport {
    /// The network policy of a transport.
    public struct Configuration: Sendable, Equatable {
        /// The `User-Agent` header.
        public var userAgent: String
        /// A PEM file of trusted CAs instead of the system store.
        public var caBundlePath: String?
        /// Where cookies persist between runs; `nil` keeps them in memory only.
        public var cookieJarPath: String?
        /// How long DNS, TCP and TLS together may take.
        public var connectTimeout: Duration
        /// How long a transfer may receive less than a byte per second before it fails.
        public var stallTimeout: Duration
        /// The most redirects followed.
        public var maxRedirects: Int

        /// Creates a configuration; the defaults suit both API calls and large downloads.
        public init(
            userAgent: String = SCLMVersion.userAgent, caBundlePath: String? = nil, cookieJarPath: String? = nil,
            connectTimeout: Duration = .seconds(30), stallTimeout: Duration = .seconds(30), maxRedirects: Int = 5
        ) {
            self.userAgent = userAgent
            self.caBundlePath = caBundlePath
            self.cookieJarPath = cookieJarPath
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.maxRedirects = maxRedirects
        }
    }

    /// The policy applied to every request.
    public let configuration: Configuration
    private let engine: CurlEngine
    private let logger: Logger?

    /// Creates a transport; `logger` receives one debug line per exchange (method, host, path, status).
    public init(configuration: Configuration = Configuration(), logger: Logger? = nil) {
        self.configuration = configuration
        self.logger = logger
        self.engine = CurlEngine(cookieJar: configuration.cookieJarPath.map { CookieJar(path: $0, logger: logger) })
    }

    deinit { engine.stop() }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let started = ContinuousClock.now
        let completion = try await logged(request, started: started) {
            try await engine.perform(CurlTransfer(request, configuration: configuration))
        }
        logger?.debug(
            "\(request.summary) → \(completion.status), \(completion.body.count) bytes in \(Self.elapsed(since: started))"
        )
        return HTTPResponse(
            status: completion.status, headers: completion.headers, body: completion.body, url: completion.url)
    }

    public func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?) async throws
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
            try await engine.perform(CurlTransfer(http, file: file, progress: progress, configuration: configuration))
        }
        let outcome = file.outcome ?? .complete
        logger?.debug(
            "\(http.summary) → \(completion.status), \(file.received) bytes to \(request.destinationPath) in \(Self.elapsed(since: started))"
        )
        return DownloadResult(
            outcome: outcome, status: completion.status, headers: completion.headers, fileBytes: file.size,
            receivedBytes: file.received)
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
