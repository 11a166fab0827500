import SCLMCore
import SCLMHTTP
import SCLMStore
import Synchronization

/// The composition root of one command run: the home's configuration and store, the process's one
/// libcurl engine, and the API transport, auth session and content API built on them (``api()``).
///
/// Made only by ``CommandContext/withServices(configuration:logger:_:)``, which stops the engine when the
/// scope ends, so every transport a command makes — ``api()``'s, OSAM's, the bridge's HTTP module's — is
/// a view with its own policy on the same engine thread. The store and the API services are built on
/// first use, so a command (the bridge without a background flush) checks only the settings it uses.
final class Services: Sendable {
    /// The running command's context (home, environment, clock, output).
    let context: CommandContext
    /// The one HTTP engine of the process.
    let engine: CurlEngine
    /// The home's configuration with environment overrides.
    let configuration: Configuration
    /// Where diagnostics go (the `logger` the scope was opened with, else the context's).
    let logger: Logger
    private let builtAPI = Mutex<APIServices?>(nil)

    fileprivate init(context: CommandContext, engine: CurlEngine, configuration: Configuration, logger: Logger) {
        self.context = context
        self.engine = engine
        self.configuration = configuration
        self.logger = logger
    }

    /// The home's database, created with the home on first use (``CommandContext/store()``).
    ///
    /// - Throws: `SCLMError`/`StoreError` when the home or database cannot be opened.
    func store() throws -> ContentStore {
        try context.store()
    }

    /// The StoryCLM API: the transport with the home's cookie jar, the token endpoint, the auth session;
    /// built once, on first use.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a malformed `http.*` setting, or a storage error.
    func api() throws -> APIServices {
        try builtAPI.withLock { built in
            if let built { return built }
            let api = try APIServices(context: context, engine: engine, configuration: configuration, logger: logger)
            built = api
            return api
        }
    }

    /// A transport on the engine with `configuration`'s policy and its own cookies and connections.
    func makeTransport(_ configuration: CurlTransport.Configuration) -> CurlTransport {
        CurlTransport(engine: engine, configuration: configuration, logger: logger)
    }
}

extension CommandContext {
    /// Builds the services of a command that goes on the network, runs `body` with them, and stops the HTTP
    /// engine when `body` returns or throws (also when the command is cancelled).
    ///
    /// ```swift
    /// try await context.withServices { services in
    ///     let token = try await services.api().tokenEndpoint().requestToken(grant)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the configuration to use; the home's when `nil`.
    ///   - logger: where the transports' diagnostics go; the context's logger when `nil`.
    ///   - body: the command's work.
    /// - Returns: what `body` returns.
    /// - Throws: `SCLMError` for an unreadable or malformed `config.json`, or what `body` throws.
    func withServices<T>(
        configuration: Configuration? = nil, logger: Logger? = nil, _ body: (Services) async throws -> T
    ) async throws -> T {
        let configuration = try configuration ?? self.configuration()
        let engine = CurlEngine()
        do {
            let services = Services(
                context: self, engine: engine, configuration: configuration, logger: logger ?? self.logger)
            let result = try await body(services)
            await engine.shutdown()
            return result
        } catch {
            await engine.shutdown()
            throw error
        }
    }
}
