import Foundation
import SCLMBridge
import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMStore

/// Builds what every bridge host serves, once for `sclm bridge` (stdio) and `sclm play` /
/// `sclm validate --render` (a browser page): the presentation host and one registry of the StoryCLM
/// modules, HTTP with its network rule, OSAM, and any extra modules.
enum BridgeAssembly {
    /// Loads installed presentation `presentationId` and a host for it writing to `output`.
    ///
    /// Loaded before any module starts, so a presentation that is not installed fails at once.
    ///
    /// - Throws: `SCLMError` (`.notFound`) when it is not installed; store errors.
    static func host(
        presentationId: Int64, context: CommandContext, configuration: Configuration, output: BridgeOutput
    ) async throws -> (InstalledPresentation, PresentationHost) {
        let store = try context.store()
        let home = context.home
        let presentation = try await store.read { db in
            try InstalledPresentation.load(presentationId, from: db, home: home)
        }
        let environment = try await store.read { db in
            try HostEnvironment.load(configuration: configuration, db: db, processEnvironment: context.environment)
        }
        let host = PresentationHost(
            store: store, home: home, environment: environment, output: output, clock: context.clock,
            logger: context.logger)
        return (presentation, host)
    }

    /// The registry of `host`'s modules, HTTP, OSAM and `extra`.
    ///
    /// - Throws: `SCLMError` (`.usage`) for a command served twice; configuration errors.
    static func registry(
        host: PresentationHost, configuration: Configuration, context: CommandContext, extra: [any BridgeModule] = []
    ) throws -> ModuleRegistry {
        try ModuleRegistry(
            host.modules + [
                try httpModule(configuration, context: context), try osamModule(configuration, context: context),
            ]
                + extra)
    }

    /// The HTTP module over its own libcurl transport (`http.*` timeouts and CA bundle; cookies in memory,
    /// apart from the StoryCLM API's).
    private static func httpModule(_ configuration: Configuration, context: CommandContext) throws -> HTTPModule {
        let transport = CurlTransport(
            configuration: try APIServices.transportConfiguration(configuration, cookieJarPath: nil),
            logger: context.logger)
        return HTTPModule(transport: transport, policy: HTTPModule.Policy(configuration: configuration))
    }

    /// The OSAM module over the home's OSAM state and the `osam.*` settings.
    private static func osamModule(_ configuration: Configuration, context: CommandContext) throws -> OSAMModule {
        OSAMModule(
            service: try context.osamService(configuration: configuration),
            settings: OSAMModule.Settings(configuration: configuration), device: DeviceInformation.current(),
            deviceLanguage: DeviceInformation.language(environment: context.environment))
    }
}
