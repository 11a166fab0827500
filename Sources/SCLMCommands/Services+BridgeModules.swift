import Foundation
import SCLMAuth
import SCLMBridge
import SCLMBridgeModules
import SCLMCore
import SCLMHTTP
import SCLMOSAM
import SCLMSync

extension Services {
    /// The registry of a hosted presentation: `host`'s modules, HTTP, OSAM and Tables, then `external` modules.
    ///
    /// The one assembly of the in-process bridge modules, for every process that hosts a presentation
    /// (`sclm bridge`, a player). HTTP and OSAM run on this scope's engine, each with its own policy.
    ///
    /// - Throws: ``BridgeError`` when two modules claim one command; `SCLMError` (`.usage`) or
    ///   ``ValidationError`` for a malformed `bridge.*`, `http.*` or `osam.*` setting.
    func makeModuleRegistry(host: PresentationHost, external: [any BridgeModule] = []) throws -> ModuleRegistry {
        try ModuleRegistry(host.modules + [try httpModule(), try osamModule(), tablesModule(host: host)] + external)
    }

    /// The Tables module over the StoryCLM API and its auth session; offline (every command 503 naming what
    /// is missing) without a valid `api.url` or login settings.
    private func tablesModule(host: PresentationHost) -> TablesModule {
        do {
            let url = try configuration.required(.apiURL)
            let session = try api().authSession(clock: context.clock)
            return TablesModule(connection: .online(apiURL: url, send: { try await session.send($0) }), host: host)
        } catch {
            return TablesModule(connection: .offline("\(error)"), host: host)
        }
    }

    /// The HTTP module over a transport of its own on the engine (`http.*` timeouts and CA bundle; cookies in
    /// memory, apart from the StoryCLM API's; no proxy unless `bridge.httpProxy`), which checks every hop and
    /// connection against `bridge.httpAllowedHosts`.
    private func httpModule() throws -> HTTPModule {
        let policy = try HTTPModule.Policy(configuration: configuration)
        var transportConfiguration = try APIServices.transportConfiguration(configuration, cookieJarPath: nil)
        transportConfiguration.networkRule = policy.rule
        // Direct unless bridge.httpProxy says otherwise: through http.proxy or a proxy variable, the rule
        // would judge the proxy's address, not the destination's.
        let proxy = try configuration.value(.bridgeHTTPProxy).flatMap { $0.isEmpty ? nil : ProxyServer(url: $0) }
        transportConfiguration.proxy = proxy.map(ProxyChoice.server) ?? .direct
        return HTTPModule(transport: makeTransport(transportConfiguration), policy: policy)
    }

    /// The OSAM module over the home's OSAM state and the `osam.*` settings.
    private func osamModule() throws -> OSAMModule {
        OSAMModule(
            service: try osamService(), settings: try OSAMModule.Settings(configuration: configuration),
            device: DeviceInformation.current(),
            deviceLanguage: DeviceInformation.language(environment: context.environment))
    }
}
