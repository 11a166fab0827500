import Foundation
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMPolicy

extension CommandContext {
    /// Runs `body` with the OSAM service of one `sclm osam` command (``Services/osamService(_:needsBackend:)``)
    /// inside ``withServices(configuration:logger:_:)``.
    ///
    /// - Throws: ``ValidationError`` for a missing or malformed endpoint; `StoreError`; what `body` throws.
    func withOSAMService<T>(
        _ options: OsamOptions, configuration: Configuration, needsBackend: Bool = false,
        _ body: (OSAMService) async throws -> T
    ) async throws -> T {
        try await withServices(configuration: configuration) { services in
            try await body(try services.osamService(options, needsBackend: needsBackend))
        }
    }
}

extension Services {
    /// The OSAM service for one `sclm osam` command, with the `--now` clock.
    ///
    /// - Parameters:
    ///   - options: the command's OSAM options (endpoint, `--offline`, `--now`).
    ///   - needsBackend: whether the command contacts the backend (then an endpoint is required
    ///     unless `--offline` was given).
    /// - Returns: the service, on this scope's store and engine.
    /// - Throws: ``ValidationError`` for a missing or malformed endpoint.
    func osamService(_ options: OsamOptions, needsBackend: Bool = false) throws -> OSAMService {
        var endpoint: URL?
        if needsBackend && !options.isOffline {
            guard let url = try options.endpoint ?? configuration.value(.osamEndpoint) else {
                throw ValidationError("no OSAM endpoint: pass --endpoint URL, set osam.endpoint, or use --offline")
            }
            endpoint = url
        }
        return try osamService(endpoint: endpoint, clock: options.clock(context))
    }

    /// The OSAM service of the bridge: the endpoint of `osam.endpoint` (none: checks answer 503), the context's clock.
    ///
    /// - Throws: ``ValidationError`` for a malformed `osam.endpoint`.
    func osamService() throws -> OSAMService {
        try osamService(endpoint: configuration.value(.osamEndpoint), clock: context.clock)
    }

    /// The home's store, the HTTP backend at `endpoint` (none without one), the store-backed analytics and
    /// messaging providers (with the `osam.topicsWebhook` notifier) and `clock`.
    private func osamService(endpoint: URL?, clock: any WallClock) throws -> OSAMService {
        let store = try store()
        let transport = try osamTransport()
        let password = try configuration.value(.osamPassword) ?? ""
        let credentials = try configuration.value(.osamUsername).map {
            HTTPOSAMBackend.Credentials(username: $0, password: password)
        }
        let backend = endpoint.map { HTTPOSAMBackend(endpoint: $0, credentials: credentials, transport: transport) }
        let notifier = try configuration.value(.osamTopicsWebhook).map { url in
            HTTPOSAMBackend.webhookNotifier(url, transport: transport)
        }
        return OSAMService(
            store: store, backend: backend, analytics: StoreAnalyticsProvider(store: store),
            messaging: StoreMessagingProvider(store: store, notifier: notifier, clock: clock), clock: clock,
            logger: logger,
            // State written before states were per platform was about the configured platform.
            unplatformedStateOwner: try configuration.value(.osamPlatform))
    }

    /// A transport for OSAM's small requests: short connect and stall limits, the configured CA bundle,
    /// and no cookie jar (the OSAM backend is not the StoryCLM one).
    private func osamTransport() throws -> CurlTransport {
        makeTransport(
            CurlTransport.Configuration(
                caBundlePath: try configuration.value(.caBundle), connectTimeout: .seconds(5),
                stallTimeout: .seconds(10),
                proxy: try APIServices.proxyChoice(in: configuration)))
    }
}
