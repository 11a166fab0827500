import Foundation
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMPolicy

extension CommandContext {
    /// The OSAM service for one `sclm osam` command: the home's store, the configured backend, the
    /// store-backed analytics and messaging providers, and the `--now` clock.
    ///
    /// - Parameter needsBackend: whether the command contacts the backend (then an endpoint is required
    ///   unless `--offline` was given).
    /// - Throws: ``ValidationError`` for a missing or malformed endpoint; `StoreError` when the store cannot open.
    func osamService(_ options: OsamOptions, configuration: Configuration, needsBackend: Bool = false) throws -> OSAMService {
        let store = try store()
        let clock = options.clock(self)
        let transport = osamTransport(configuration)
        var backend: (any OSAMBackend)?
        if needsBackend && !options.isOffline {
            backend = HTTPOSAMBackend(
                endpoint: try osamURL(options.endpoint ?? configuration.value(.osamEndpoint), what: "OSAM endpoint",
                                      hint: "pass --endpoint URL, set osam.endpoint, or use --offline"),
                credentials: configuration.value(.osamUsername).map {
                    HTTPOSAMBackend.Credentials(username: $0, password: configuration.value(.osamPassword) ?? "")
                },
                transport: transport)
        }
        let notifier = try configuration.value(.osamTopicsWebhook).map { text in
            HTTPOSAMBackend.webhookNotifier(try osamURL(text, what: "osam.topicsWebhook", hint: "fix it with sclm config set"), transport: transport)
        }
        return OSAMService(
            store: store, backend: backend, analytics: StoreAnalyticsProvider(store: store),
            messaging: StoreMessagingProvider(store: store, notifier: notifier, clock: clock), clock: clock, logger: logger)
    }

    /// A transport for OSAM's small requests: short connect and stall limits, the configured CA bundle,
    /// and no cookie jar (the OSAM backend is not the StoryCLM one).
    private func osamTransport(_ configuration: Configuration) -> CurlTransport {
        CurlTransport(
            configuration: CurlTransport.Configuration(
                caBundlePath: configuration.value(.caBundle), connectTimeout: .seconds(5), stallTimeout: .seconds(10)),
            logger: logger)
    }

    private func osamURL(_ text: String?, what: String, hint: String) throws -> URL {
        guard let text, !text.isEmpty else { throw ValidationError("no \(what): \(hint)") }
        guard let url = URL(string: text), url.isHTTP, url.host != nil else {
            throw ValidationError("the \(what) must be an http(s) URL, got '\(text)'")
        }
        return url
    }
}
